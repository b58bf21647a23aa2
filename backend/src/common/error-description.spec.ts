import { describe, expect, it } from '@jest/globals';
import { describeError } from './error-description.js';

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
