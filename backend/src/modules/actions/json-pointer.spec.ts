import { describe, expect, it } from '@jest/globals';
import { filterAnswer, parsePointer, resolvePointer } from './json-pointer.js';

const ORDER = {
  status: 'shipped',
  customer: { email: 'ann@example.com', card: '4242' },
  items: [{ name: 'Mug' }, { name: 'Tea' }],
  'a/b': 1,
  'm~n': 2,
};

describe('JSON pointers (RFC 6901)', () => {
  it('parses and unescapes tokens', () => {
    expect(parsePointer('')).toEqual([]);
    expect(parsePointer('/a~1b/m~0n')).toEqual(['a/b', 'm~n']);
    expect(parsePointer('a')).toBeNull();
    expect(parsePointer('/a~')).toBeNull();
  });

  it('resolves objects, array indices and escaped names', () => {
    expect(resolvePointer(ORDER, '/status')).toBe('shipped');
    expect(resolvePointer(ORDER, '/items/1/name')).toBe('Tea');
    expect(resolvePointer(ORDER, '/a~1b')).toBe(1);
    expect(resolvePointer(ORDER, '/m~0n')).toBe(2);
    expect(resolvePointer(ORDER, '')).toBe(ORDER);
    expect(resolvePointer(ORDER, '/items/01/name')).toBeUndefined();
    expect(resolvePointer(ORDER, '/items/-')).toBeUndefined();
    expect(resolvePointer(ORDER, '/status/length')).toBeUndefined();
    expect(resolvePointer(ORDER, '/constructor')).toBeUndefined();
    expect(resolvePointer(ORDER, '/nothing/here')).toBeUndefined();
  });

  it('keeps only the fields named; the rest is dropped', () => {
    expect(filterAnswer(ORDER, ['/status', '/items/0/name', '/missing'])).toEqual({
      answer: { '/status': 'shipped', '/items/0/name': 'Mug' },
      truncated: false,
    });
  });

  it('cuts a long answer to valid JSON of at most the limit, never half a character', () => {
    const long = { note: '🙂"\\'.repeat(3000), other: 'x' };
    const { answer, truncated } = filterAnswer(long, ['/note', '/other'], 4096);
    const text = JSON.stringify(answer);
    expect(truncated).toBe(true);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096);
    expect(Buffer.byteLength(text)).toBeGreaterThan(4000);
    expect(JSON.parse(text)).toEqual(answer);
    expect((answer['/note'] as string).endsWith('…')).toBe(true);
    expect(answer['/note']).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(answer).not.toHaveProperty('/other');
  });

  it('turns a large object into the start of its JSON text', () => {
    const big = { list: Array.from({ length: 2000 }, (_, i) => ({ i })) };
    const { answer, truncated } = filterAnswer(big, ['/list'], 4096);
    expect(truncated).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(answer))).toBeLessThanOrEqual(4096);
    expect(answer['/list']).toMatch(/^\[\{"i":0\},\{"i":1\}/);
  });
});
