import { afterEach, describe, expect, it, vi } from 'vitest';
import { sendFeedback } from '../extras/api';
import { deleteConversation, sendLead } from '../extras/api';
import { credentialsFor, fetchBot, sendChat, setProof } from './api';

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
  it("returns the done event's citations and flags as sent (the footer checks citations where it shows them)", async () => {
    const citations = [{ sourceId: 1, name: 'Menu.pdf', page: 3, url: null }];
    const done = { message: 'Hi', citations, unanswered: true };
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(sseResponse([`event: done\ndata: ${JSON.stringify(done)}\n\n`])));
    expect(await sendChat(req, () => undefined, new AbortController().signal)).toEqual(done);
  });

  it("returns a JSON answer's citations and a handoff's quiet answer", async () => {
    const citations = [{ sourceId: 1, name: 'Hours', page: null, url: 'https://cafe.example/hours' }];
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(json({ message: 'Hi', citations })));
    expect(await sendChat(req, () => undefined, new AbortController().signal)).toEqual({ message: 'Hi', citations });
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(json({ message: '', messageId: null, citations: [], handoff: true })),
    );
    expect(await sendChat(req, () => undefined, new AbortController().signal)).toMatchObject({
      message: '',
      handoff: true,
    });
  });

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
    expect(headers['X-Page-Url']).toBe(location.origin + location.pathname);
    // No identity of its own making: the server issues it.
    expect(headers['X-Visitor-Id']).toBeUndefined();
    expect(JSON.parse(init.body as string)).toEqual({
      botId: '7',
      chatHistory: [{ role: 'assistant', content: 'Hi!' }],
      prompt: 'Hello',
      model: 'gpt-4o-mini',
    });
  });

  it('sends the page origin and path only, never its query or fragment', async () => {
    history.replaceState(null, '', '/shop/checkout?email=ann%40example.com&reset=secret-token#access_token=abc');
    try {
      const fetchMock = vi.fn().mockResolvedValue(json({ message: 'ok' }));
      vi.stubGlobal('fetch', fetchMock);
      await sendChat(req, () => undefined, new AbortController().signal);
      const headers = (fetchMock.mock.calls[0] as [string, RequestInit])[1].headers as Record<string, string>;
      expect(headers['X-Page-Url']).toBe(`${location.origin}/shop/checkout`);
      expect(JSON.stringify(fetchMock.mock.calls[0])).not.toMatch(/secret-token|access_token|ann%40/);
    } finally {
      history.replaceState(null, '', '/');
    }
  });

  it('sends no visitor token until the server issued one, then the one issued for that bot', async () => {
    localStorage.clear();
    const withToken = (token: string) =>
      new Response(JSON.stringify({ message: 'ok' }), {
        headers: { 'Content-Type': 'application/json', 'X-Visitor-Token': token },
      });
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(withToken('v1.first-token'))
      .mockResolvedValueOnce(json({ message: 'ok' }))
      .mockResolvedValueOnce(withToken('v1.replaced-token'))
      .mockResolvedValue(json({ message: 'ok' }));
    vi.stubGlobal('fetch', fetchMock);
    const sent = () =>
      fetchMock.mock.calls.map((c) => ((c[1] as RequestInit).headers as Record<string, string>)['X-Visitor-Token']);
    const signal = new AbortController().signal;
    await sendChat(req, () => undefined, signal);
    await sendChat(req, () => undefined, signal);
    await sendChat(req, () => undefined, signal);
    await sendChat(req, () => undefined, signal);
    // Another bot has its own identity: nothing issued for it yet.
    await sendChat({ ...req, botId: '8' }, () => undefined, signal);
    expect(sent()).toEqual([undefined, 'v1.first-token', 'v1.first-token', 'v1.replaced-token', undefined]);
  });

  it('keeps a token issued with a streamed answer', async () => {
    localStorage.clear();
    const streamed = sseResponse(['event: done\ndata: {"message":"Hi","costCents":3}\n\n']);
    streamed.headers.set('X-Visitor-Token', 'v1.streamed-token');
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(streamed)
      .mockResolvedValue(json({ message: 'ok' }));
    vi.stubGlobal('fetch', fetchMock);
    await sendChat(req, () => undefined, new AbortController().signal);
    await sendChat(req, () => undefined, new AbortController().signal);
    const second = (fetchMock.mock.calls[1] as [string, RequestInit])[1].headers as Record<string, string>;
    expect(second['X-Visitor-Token']).toBe('v1.streamed-token');
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

  it('falls back to its own text when a refusal has none', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('<html>Bad gateway</html>', { status: 502 })));
    expect(await sendChat(req, () => undefined, new AbortController().signal)).toEqual({
      error: 'An error occurred while sending your message.',
    });
  });

  it('falls back to its own text on a network failure', async () => {
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
  it("returns the server's error, or no text when it gave none (the window words that itself)", async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(json({ error: 'Bot not found.', code: 'NOT_FOUND' }, 404)));
    expect(await fetchBot('https://api.example', '9')).toEqual({ error: 'Bot not found.' });
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('offline')));
    expect(await fetchBot('https://api.example', '9')).toEqual({ error: '' });
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('<h1>Bad gateway</h1>', { status: 502 })));
    expect(await fetchBot('https://api.example', '9')).toEqual({ error: '' });
  });
});

describe('answer ids and feedback', () => {
  it("keeps the answer's id from the JSON answer and from the stream's done event", async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(json({ message: 'Plain', messageId: 41, citations: [] })));
    expect(await sendChat(req, () => undefined, new AbortController().signal)).toMatchObject({ id: 41 });
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(sseResponse(['event: done\ndata: {"message":"Hi","messageId":42,"costCents":3}\n\n'])),
    );
    expect(await sendChat(req, () => undefined, new AbortController().signal)).toMatchObject({ id: 42 });
  });

  it("posts the rating with chat's headers and credentials, as the visitor the server named", async () => {
    localStorage.setItem('botsmith:token:7', 'v1.visitor-token');
    const fetchMock = vi.fn().mockResolvedValue(new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchMock);
    expect(await sendFeedback('https://api.example', '7', 42, 'down')).toBe(true);
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('https://api.example/api/chat/feedback');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('omit');
    expect(init.headers).toEqual({
      'Content-Type': 'application/json',
      'X-Page-Url': location.origin + location.pathname,
      'X-Visitor-Token': 'v1.visitor-token',
    });
    expect(JSON.parse(init.body as string)).toEqual({ botId: '7', messageId: 42, rating: 'down' });
    localStorage.clear();
  });

  it("sends Botsmith.identify's proof as X-Visitor-Identity on every visitor call, and nothing else of it", async () => {
    const fetchMock = vi.fn().mockImplementation(() => Promise.resolve(new Response(null, { status: 204 })));
    vi.stubGlobal('fetch', fetchMock);
    const identities = () =>
      fetchMock.mock.calls.map((c) => ((c[1] as RequestInit).headers as Record<string, string>)['X-Visitor-Identity']);
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbmEifQ.c2lnbmF0dXJl-_';

    setProof({ token: jwt, name: 'Ana' });
    await sendFeedback('https://api.example', '7', 42, 'up');
    await sendLead('https://api.example', '7', { email: 'ana@example.com' });
    await deleteConversation('https://api.example', '7');
    setProof({ userId: 'customer 1/é', userHash: 'ab'.repeat(32), name: 'Ana' });
    await sendFeedback('https://api.example', '7', 42, 'up');
    // A display-only identify, and a token with characters no JWT has (fetch would throw on a newline).
    setProof({ name: 'Ana', email: 'ana@example.com' });
    await sendFeedback('https://api.example', '7', 42, 'up');
    setProof({ token: 'bad\ntoken' });
    await sendFeedback('https://api.example', '7', 42, 'up');
    setProof();

    expect(identities()).toEqual([
      jwt,
      jwt,
      jwt,
      `userId=customer+1%2F%C3%A9&userHash=${'ab'.repeat(32)}`,
      undefined,
      undefined,
    ]);
  });

  it('answers false when the server refuses or cannot be reached', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(json({ error: 'x', code: 'MESSAGE_NOT_FOUND' }, 404)));
    expect(await sendFeedback('https://api.example', '7', 42, 'up')).toBe(false);
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('offline')));
    expect(await sendFeedback('https://api.example', '7', 42, 'up')).toBe(false);
  });
});
