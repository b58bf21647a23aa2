import { describe, expect, it } from 'vitest';
import { canSend, enterAction, outgoing } from './input';

describe('canSend', () => {
  it('refuses empty and whitespace-only input', () => {
    expect(canSend('', false)).toBe(false);
    expect(canSend('   ', false)).toBe(false);
    expect(canSend('\n\t \n', false)).toBe(false);
  });
  it('refuses anything while a reply is pending', () => {
    expect(canSend('hello', true)).toBe(false);
  });
  it('accepts text', () => {
    expect(canSend(' hi ', false)).toBe(true);
  });
});

describe('enterAction', () => {
  it('sends on Enter', () => {
    expect(enterAction({ key: 'Enter', shiftKey: false }, false)).toBe('send');
  });
  it('leaves Shift+Enter to the textarea (a new line)', () => {
    expect(enterAction({ key: 'Enter', shiftKey: true }, false)).toBe('default');
  });
  it('holds Enter while a reply is pending', () => {
    expect(enterAction({ key: 'Enter', shiftKey: false }, true)).toBe('hold');
  });
  it('does not send while an IME composes', () => {
    expect(enterAction({ key: 'Enter', shiftKey: false, isComposing: true }, false)).toBe('default');
  });
  it('ignores other keys', () => {
    expect(enterAction({ key: 'a', shiftKey: false }, false)).toBe('default');
  });
});

describe('outgoing', () => {
  it('trims surrounding whitespace but keeps inner lines', () => {
    expect(outgoing('  one\ntwo \n')).toBe('one\ntwo');
  });
});
