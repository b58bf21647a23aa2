import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatRecent, formatTime, formatUtcDate } from './dateTime';

describe('the one date/time formatter', () => {
  const iso = '2026-11-20T13:05:00.000Z';

  it('writes a day and a moment in the given locale and time zone', () => {
    expect(formatDate(iso, { locale: 'en-US', timeZone: 'UTC' })).toBe('Nov 20, 2026');
    expect(formatDateTime(iso, { locale: 'en-US', timeZone: 'UTC' })).toBe('Nov 20, 2026, 1:05 PM');
    expect(formatDateTime(iso, { locale: 'de-DE', timeZone: 'Europe/Berlin' })).toBe('20. Nov. 2026, 14:05');
    expect(formatTime(iso, { locale: 'en-GB', timeZone: 'Asia/Tokyo' })).toBe('22:05');
  });

  it('moves a day across midnight in the owner’s zone, but not a UTC billing day', () => {
    const late = '2026-11-20T23:30:00.000Z';
    expect(formatDate(late, { locale: 'en-US', timeZone: 'Asia/Tokyo' })).toBe('Nov 21, 2026');
    expect(formatUtcDate(late, { locale: 'en-US' })).toBe('Nov 20, 2026');
  });

  it('uses the browser’s locale and zone when none is given', () => {
    const browser = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
    expect(formatDate(iso)).toBe(browser.format(new Date(iso)));
  });

  it('shortens recent moments for a list: time today, day this year, full day before', () => {
    const o = { locale: 'en-US', timeZone: 'UTC', now: new Date('2026-11-20T18:00:00Z') };
    expect(formatRecent(iso, o)).toBe('1:05 PM');
    expect(formatRecent('2026-03-02T09:00:00Z', o)).toBe('Mar 2, 9:00 AM');
    expect(formatRecent('2025-03-02T09:00:00Z', o)).toBe('Mar 2, 2025');
    // "today" is the owner's today: 23:30 UTC on the 19th is already the 20th in Tokyo.
    const morning = { ...o, now: new Date('2026-11-20T10:00:00Z') };
    expect(formatRecent('2026-11-19T23:30:00Z', morning)).toBe('Nov 19, 11:30 PM');
    expect(formatRecent('2026-11-19T23:30:00Z', { ...morning, timeZone: 'Asia/Tokyo' })).toBe('8:30 AM');
  });

  it('writes nothing for a missing or broken date instead of "Invalid Date"', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDateTime('not a date')).toBe('');
    expect(formatRecent('')).toBe('');
  });
});
