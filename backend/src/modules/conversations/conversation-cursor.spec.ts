import { describe, expect, it } from '@jest/globals';
import { decodeCursor, encodeCursor } from './conversation-cursor.js';

describe('conversation cursor', () => {
  const cursor = { at: '2026-11-25T17:30:01.123456Z', id: 42 };

  it('reads back what it wrote, microseconds included', () => {
    const text = encodeCursor(cursor);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(text)).toEqual(cursor);
  });

  it.each([
    ['empty', ''],
    ['not base64url', 'abc+/='],
    ['padding', `${encodeCursor(cursor)}=`],
    ['cut', encodeCursor(cursor).slice(0, -3)],
    ['another text', Buffer.from('hello').toString('base64url')],
    ['JSON', Buffer.from(JSON.stringify(cursor)).toString('base64url')],
    ['id 0', Buffer.from('2026-11-25T17:30:01.123456Z~0').toString('base64url')],
    ['id too large', Buffer.from('2026-11-25T17:30:01.123456Z~2147483648').toString('base64url')],
    ['impossible date', Buffer.from('2026-02-30T17:30:01.123456Z~1').toString('base64url')],
    ['impossible hour', Buffer.from('2026-11-25T25:30:01.123456Z~1').toString('base64url')],
    ['NUL', Buffer.from('2026-11-25T17:30:01.123456Z~1\u0000').toString('base64url')],
    [
      'year 0, which PostgreSQL has not (found by fuzzing: a 500)',
      Buffer.from('0000-01-01T00:00:00.000000Z~1').toString('base64url'),
    ],
  ])('refuses %s', (_name, text) => {
    expect(decodeCursor(text)).toBeNull();
  });

  it('reads the first and the last year PostgreSQL and the cursor can both hold', () => {
    for (const at of ['0001-01-01T00:00:00.000000Z', '9999-12-31T23:59:59.999999Z']) {
      expect(decodeCursor(encodeCursor({ at, id: 1 }))).toEqual({ at, id: 1 });
    }
  });
});
