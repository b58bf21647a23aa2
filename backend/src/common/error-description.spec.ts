import { describe, expect, it } from '@jest/globals';
import { describeError, describeErrorWithStack } from './error-description.js';

describe('describeError', () => {
  it("gives an Error's message, without its name or stack", () => {
    expect(describeError(new TypeError('fetch failed'))).toBe('fetch failed');
  });

  it('gives any other thrown value as text, even null and undefined', () => {
    expect(describeError('connection reset')).toBe('connection reset');
    expect(describeError(42)).toBe('42');
    expect(describeError(null)).toBe('null');
    expect(describeError(undefined)).toBe('undefined');
  });
});

describe('describeErrorWithStack', () => {
  it("gives an Error's stack, which starts with its message", () => {
    const error = new Error('port in use');
    expect(describeErrorWithStack(error)).toBe(error.stack);
    expect(describeErrorWithStack(error)).toMatch(/^Error: port in use\n\s+at /);
  });

  it('falls back to the message when there is no stack, and to text for a non-Error', () => {
    const error = new Error('no stack');
    error.stack = undefined;
    expect(describeErrorWithStack(error)).toBe('no stack');
    expect(describeErrorWithStack({ code: 'X' })).toBe('[object Object]');
  });
});
