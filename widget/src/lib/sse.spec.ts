import { describe, expect, it } from 'vitest';
import { createSseParser } from './sse';

function parse(chunks: string[]): Array<[string, string]> {
  const events: Array<[string, string]> = [];
  const p = createSseParser((e, d) => events.push([e, d]));
  chunks.forEach((c) => p.push(c));
  p.end();
  return events;
}

const stream =
  'event: token\ndata: {"text":"Hel"}\n\n' +
  'event: token\ndata: {"text":"lo"}\n\n' +
  'event: done\ndata: {"message":"Hello","costCents":3}\n\n';

describe('createSseParser', () => {
  it('parses whole events', () => {
    expect(parse([stream])).toEqual([
      ['token', '{"text":"Hel"}'],
      ['token', '{"text":"lo"}'],
      ['done', '{"message":"Hello","costCents":3}'],
    ]);
  });

  it('gives the same events however the stream is split', () => {
    const whole = parse([stream]);
    for (let size = 1; size < 12; size++) {
      const chunks: string[] = [];
      for (let i = 0; i < stream.length; i += size) chunks.push(stream.slice(i, i + size));
      expect(parse(chunks)).toEqual(whole);
    }
  });

  it('handles CRLF split between \\r and \\n, and bare CR', () => {
    expect(parse(['event: token\r', '\ndata: a\r', '\n\r', '\n'])).toEqual([['token', 'a']]);
    expect(parse(['data: a\r\rdata: b\r\r'])).toEqual([
      ['message', 'a'],
      ['message', 'b'],
    ]);
  });

  it('joins multi-line data with newlines', () => {
    expect(parse(['event: done\ndata: line one\ndata: line two\ndata:\n\n'])).toEqual([
      ['done', 'line one\nline two\n'],
    ]);
  });

  it('skips comments and unknown fields, and strips one leading space only', () => {
    expect(parse([': keep-alive\nid: 7\nretry: 10\nevent: token\ndata:  two spaces\n\n'])).toEqual([
      ['token', ' two spaces'],
    ]);
  });

  it('parses an error event', () => {
    expect(parse(['event: error\ndata: {"error":"Rate limit reached.","code":"RATE_LIMITED"}\n\n'])).toEqual([
      ['error', '{"error":"Rate limit reached.","code":"RATE_LIMITED"}'],
    ]);
  });

  it('does not dispatch an event the stream cut off before its blank line', () => {
    expect(parse(['event: done\ndata: {"message":"x"}'])).toEqual([]);
  });

  it('does not dispatch an event without data', () => {
    expect(parse(['event: token\n\n'])).toEqual([]);
  });
});
