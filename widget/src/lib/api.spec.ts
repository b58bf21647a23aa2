import { afterEach, describe, expect, it, vi } from 'vitest';
import { credentialsFor, fetchBot, sendChat } from './api';

const enc = new TextEncoder();

function sseResponse(chunks: string[], status = 200): Response {
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      chunks.forEach((s) => c.enqueue(enc.encode(s)));
      c.close();
    },
  });
  return new Response(body, { status, headers: { 'Content-Type': 'text/event-stream' } });
}

const json = (body: unknown, status = 200): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const req = {
  apiOrigin: 'https://api.example',
  botId: '7',
  chatHistory: [{ role: 'assistant' as const, content: 'Hi!' }],
  prompt: 'Hello',
  model: 'gpt-4o-mini',
};

afterEach(() => vi.unstubAllGlobals());

describe('sendChat', () => {
  it('posts the contract body and headers, streaming tokens', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValue(
        sseResponse([
          'event: token\ndata: {"te',
          'xt":"Hel"}\n\nevent: token\r\ndata: {"text":"lo"}\r\n\r',
          '\nevent: done\ndata: {"message":"Hello","costCents":3}\n\n',
        ]),
      );
    vi.stubGlobal('fetch', fetchMock);
    const tokens: string[] = [];
    const result = await sendChat(req, (t) => tokens.push(t), new AbortController().signal);
    expect(result).toEqual({ message: 'Hello' });
    expect(tokens).toEqual(['Hel', 'lo']);
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('https://api.example/api/chat');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('omit');
    const headers = init.headers as Record<string, string>;
    expect(headers.Accept).toBe('text/event-stream');
    expect(headers['X-Page-Url']).toBe(location.href);
    expect(headers['X-Visitor-Id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(init.body as string)).toEqual({
      botId: '7',
      chatHistory: [{ role: 'assistant', content: 'Hi!' }],
      prompt: 'Hello',
      model: 'gpt-4o-mini',
    });
  });

  it('keeps the same visitor id for the tab', async () => {
    const fetchMock = vi.fn().mockImplementation(() => Promise.resolve(json({ message: 'ok' })));
    vi.stubGlobal('fetch', fetchMock);
    await sendChat(req, () => undefined, new AbortController().signal);
    await sendChat(req, () => undefined, new AbortController().signal);
    const ids = fetchMock.mock.calls.map(
      (c) => ((c[1] as RequestInit).headers as Record<string, string>)['X-Visitor-Id'],
    );
    expect(ids[0]).toBe(ids[1]);
  });

  it('returns the error event text', async () => {
    vi.stubGlobal(
      'fetch',
      vi
        .fn()
        .mockResolvedValue(
          sseResponse([
            'event: token\ndata: {"text":"par"}\n\nevent: error\ndata: {"error":"The model failed.","code":"MODEL_FAILED"}\n\n',
          ]),
        ),
    );
    expect(await sendChat(req, () => undefined, new AbortController().signal)).toEqual({ error: 'The model failed.' });
  });

  it('treats a stream cut before its done event as an error', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(sseResponse(['event: token\ndata: {"text":"par"}\n\n'])));
    expect(await sendChat(req, () => undefined, new AbortController().signal)).toEqual({ error: 'An error occurred.' });
  });

  it('reads a plain JSON answer', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(json({ message: 'Plain' })));
    expect(await sendChat(req, () => undefined, new AbortController().signal)).toEqual({ message: 'Plain' });
  });

  it("shows the server's refusal text", async () => {
    vi.stubGlobal(
      'fetch',
      vi
        .fn()
        .mockResolvedValue(json({ error: 'This bot is not allowed on this site.', code: 'DOMAIN_NOT_ALLOWED' }, 403)),
    );
    expect(await sendChat(req, () => undefined, new AbortController().signal)).toEqual({
      error: 'This bot is not allowed on this site.',
    });
  });

  it('falls back to the brief text when a refusal has none', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('<html>Bad gateway</html>', { status: 502 })));
    expect(await sendChat(req, () => undefined, new AbortController().signal)).toEqual({
      error: 'An error occurred while sending your message.',
    });
  });

  it('falls back to the brief text on a network failure', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    expect(await sendChat(req, () => undefined, new AbortController().signal)).toEqual({
      error: 'An error occurred while sending your message.',
    });
  });

  it('resolves null when aborted', async () => {
    const ctrl = new AbortController();
    vi.stubGlobal(
      'fetch',
      vi.fn().mockImplementation(() => {
        ctrl.abort();
        return Promise.reject(new DOMException('aborted', 'AbortError'));
      }),
    );
    expect(await sendChat(req, () => undefined, ctrl.signal)).toBeNull();
  });
});

describe('credentialsFor', () => {
  it('includes cookies only on the product origin', () => {
    expect(credentialsFor(location.origin)).toBe('include');
    expect(credentialsFor('https://botsmith.example')).toBe('omit');
  });
});

describe('fetchBot', () => {
  it('returns the bot', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(json({ bot: { id: 1, name: 'A' } })));
    expect(await fetchBot('https://api.example', '1')).toEqual({ bot: { id: 1, name: 'A' } });
  });
  it("returns the server's error or the brief's fallback", async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(json({ error: 'Bot not found.', code: 'NOT_FOUND' }, 404)));
    expect(await fetchBot('https://api.example', '9')).toEqual({ error: 'Bot not found.' });
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('offline')));
    expect(await fetchBot('https://api.example', '9')).toEqual({ error: 'Error fetching bot details.' });
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('<h1>Bad gateway</h1>', { status: 502 })));
    expect(await fetchBot('https://api.example', '9')).toEqual({ error: 'Error fetching bot details.' });
  });
});
