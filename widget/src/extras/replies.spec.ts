import type { AgentMessage } from '@botsmith/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { listenForReplies } from './replies';

const reply = (id: number, content = `Reply ${id}`): AgentMessage => ({
  id,
  role: 'agent',
  content,
  name: 'Dana',
  createdAt: '2026-11-26T10:00:00.000Z',
});

/** An events stream the test writes to and ends. */
function eventStream() {
  let ctrl!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (ctrl = c) });
  const enc = new TextEncoder();
  return {
    response: new Response(body, { headers: { 'Content-Type': 'text/event-stream' } }),
    send: (r: AgentMessage) => ctrl.enqueue(enc.encode(`id: ${r.id}\nevent: message\ndata: ${JSON.stringify(r)}\n\n`)),
    ping: () => ctrl.enqueue(enc.encode(': ping\n\n')),
    end: () => ctrl.close(),
  };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const urls = (fetchMock: ReturnType<typeof vi.fn>) =>
  fetchMock.mock.calls.map(([url]) => String(url).replace('https://api.example/api/chat/conversations/current/', ''));

beforeEach(() => localStorage.clear());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('listenForReplies', () => {
  it("reads a person's replies from the events stream as this visitor, each once, then reopens it after the last", async () => {
    vi.useFakeTimers();
    localStorage.setItem('botsmith:token:7', 'tok-7');
    const first = eventStream();
    const second = eventStream();
    const fetchMock = vi
      .fn()
      // What was sent before the stream: one reply the widget has (4) and one it has not.
      .mockResolvedValueOnce(json({ messages: [reply(4), reply(5)], handoff: true }))
      .mockResolvedValueOnce(first.response)
      .mockResolvedValueOnce(second.response);
    vi.stubGlobal('fetch', fetchMock);
    const got: AgentMessage[] = [];
    const stop = listenForReplies('https://api.example', '7', 4, (r) => got.push(r));

    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    first.ping();
    first.send(reply(5));
    first.send(reply(5)); // the same reply twice (a reconnect overlapping) is shown once
    first.send(reply(3)); // older than what the widget has
    await vi.waitFor(() => expect(got.map((r) => r.id)).toEqual([5]));
    first.send(reply(6, 'Your order ships today.'));
    await vi.waitFor(() => expect(got.map((r) => r.content)).toEqual(['Reply 5', 'Your order ships today.']));
    expect(urls(fetchMock)).toEqual(['messages?botId=7&after=4', 'events?botId=7&after=5']);
    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect((init.headers as Record<string, string>)['X-Visitor-Token']).toBe('tok-7');

    // The server closes a stream after 5 minutes: the widget opens a new one from the last reply.
    first.end();
    await vi.advanceTimersByTimeAsync(5000);
    await vi.waitFor(() => expect(urls(fetchMock).slice(2)).toEqual(['events?botId=7&after=6']));
    stop();
    second.send(reply(7));
    await vi.advanceTimersByTimeAsync(20_000);
    expect(got.map((r) => r.id)).toEqual([5, 6]);
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('polls every 5 seconds where the stream is refused for now (429) or arrives as something else', async () => {
    vi.useFakeTimers();
    const fetchMock = vi.fn((url: string) =>
      Promise.resolve(
        url.includes('/events')
          ? json({ error: 'Too many open connections for replies.' }, 429)
          : json({ messages: fetchMock.mock.calls.length > 3 ? [reply(8)] : [], handoff: true }),
      ),
    );
    vi.stubGlobal('fetch', fetchMock);
    const got: AgentMessage[] = [];
    const stop = listenForReplies('https://api.example', '7', 0, (r) => got.push(r));
    await vi.advanceTimersByTimeAsync(5000);
    await vi.advanceTimersByTimeAsync(5000);
    await vi.waitFor(() => expect(got.map((r) => r.id)).toEqual([8]));
    await vi.waitFor(() => expect(urls(fetchMock)).toContain('events?botId=7&after=8'));
    const seen = urls(fetchMock);
    expect(seen.slice(0, 3)).toEqual([
      'messages?botId=7&after=0',
      'events?botId=7&after=0',
      'messages?botId=7&after=0',
    ]);
    // Each refused stream is followed by a poll from the same point.
    seen.forEach((url, i) => {
      if (url.startsWith('events') && i + 1 < seen.length) expect(seen[i + 1]).toBe(url.replace('events', 'messages'));
    });
    stop();
  });

  it('stops for good when the server refuses what waiting cannot change (bot gone, domain not allowed)', async () => {
    vi.useFakeTimers();
    for (const status of [404, 403, 401]) {
      const fetchMock = vi.fn().mockResolvedValue(json({ error: 'No.' }, status));
      vi.stubGlobal('fetch', fetchMock);
      listenForReplies('https://api.example', '7', 0, () => undefined);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(fetchMock).toHaveBeenCalledTimes(1);
    }
  });

  it('waits and tries again after a network failure, until stopped', async () => {
    vi.useFakeTimers();
    const fetchMock = vi.fn().mockRejectedValue(new TypeError('offline'));
    vi.stubGlobal('fetch', fetchMock);
    const stop = listenForReplies('https://api.example', '7', 0, () => undefined);
    await vi.advanceTimersByTimeAsync(10_000);
    const tries = fetchMock.mock.calls.length;
    expect(tries).toBeGreaterThanOrEqual(2);
    expect(tries).toBeLessThanOrEqual(3);
    stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetchMock.mock.calls.length).toBeLessThanOrEqual(tries + 1);
  });
});
