import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConversation, saveConversation, saveVisitorToken, visitorToken } from './storage';

const DAY = 864e5;

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => vi.useRealTimers());

describe('the stored conversation', () => {
  it('is kept in local storage, so another tab or a reload of the site finds it', () => {
    saveConversation('7', [
      { role: 'user', content: 'Hi' },
      { role: 'agent', content: 'Dana here', id: 4 },
    ]);
    saveVisitorToken('7', 'v1.token');
    expect(sessionStorage.length).toBe(0);
    expect(loadConversation('7')).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'agent', content: 'Dana here', id: 4 },
    ]);
    expect(visitorToken('7')).toBe('v1.token');
    expect(loadConversation('8')).toEqual([]);
  });

  it('is forgotten 30 days after its last change (the shortest retention), not before', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    saveConversation('7', [{ role: 'user', content: 'Hi' }]);
    vi.setSystemTime(new Date(Date.now() + 29 * DAY));
    expect(loadConversation('7')).toHaveLength(1);
    vi.setSystemTime(new Date(Date.now() + 2 * DAY));
    expect(loadConversation('7')).toEqual([]);
  });

  it('is cleared when emptied (a new conversation, or the visitor deleted it), and keeps no error bubbles', () => {
    saveConversation('7', [
      { role: 'user', content: 'Hi' },
      { role: 'error', content: 'Failed' },
    ]);
    expect(loadConversation('7')).toEqual([{ role: 'user', content: 'Hi' }]);
    saveConversation('7', []);
    expect(localStorage.getItem('botsmith:chat:7')).toBeNull();
  });

  it('reads nothing from a value it did not write (a bare list without its time, junk)', () => {
    localStorage.setItem('botsmith:chat:7', JSON.stringify([{ role: 'user', content: 'Hi' }]));
    expect(loadConversation('7')).toEqual([]);
    localStorage.setItem('botsmith:chat:7', '{not json');
    expect(loadConversation('7')).toEqual([]);
    localStorage.setItem('botsmith:chat:7', JSON.stringify({ t: Date.now(), m: 'x' }));
    expect(loadConversation('7')).toEqual([]);
  });
});
