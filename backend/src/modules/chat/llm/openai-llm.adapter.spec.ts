import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { failureOf } from '../../../../test/support/failure.js';
import { OpenAiLlmAdapter, type OpenAiAdapterOptions } from './openai-llm.adapter.js';
import { LlmError, type LlmRequest } from './llm.port.js';

/**
 * The production adapter, through the real `openai` SDK, against a local HTTP server that speaks
 * the Chat Completions API the way OpenAI does: SSE chunks ending in a usage chunk and [DONE],
 * JSON error bodies, and the failures a network produces.
 */
type Handler = (req: http.IncomingMessage, body: Record<string, unknown>, res: http.ServerResponse) => void;

let server: http.Server;
let baseUrl: string;
let handler: Handler;
let requests: Array<{ headers: http.IncomingHttpHeaders; body: Record<string, unknown> }>;
let closedConnections: number;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      requests.push({ headers: req.headers, body });
      res.on('close', () => {
        if (!res.writableFinished) closedConnections += 1;
      });
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      handler(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  requests = [];
  closedConnections = 0;
});

function chunk(model: string, content: string | null, finish: string | null = null, usage?: object): string {
  const payload = {
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model,
    choices:
      content === null && finish === null
        ? []
        : [{ index: 0, delta: content === null ? {} : { content }, finish_reason: finish }],
    usage: usage ?? null,
  };
  return `data: ${JSON.stringify(payload)}\n\n`;
}

/** Writes a normal streamed answer, one chunk per piece, then the usage chunk and [DONE]. */
function streamAnswer(res: http.ServerResponse, model: string, pieces: string[], options: { usage?: boolean } = {}) {
  if (!res.headersSent) res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(chunk(model, ''));
  for (const piece of pieces) res.write(chunk(model, piece));
  res.write(chunk(model, null, 'stop'));
  if (options.usage !== false) {
    res.write(chunk(model, null, null, { prompt_tokens: 57, completion_tokens: 9, total_tokens: 66 }));
  }
  res.end('data: [DONE]\n\n');
}

function jsonError(res: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}) {
  res
    .writeHead(status, { 'content-type': 'application/json', ...headers })
    .end(JSON.stringify({ error: { message, type: 'server_error', param: null, code: null } }));
}

function adapter(overrides: Partial<OpenAiAdapterOptions> = {}): OpenAiLlmAdapter {
  return new OpenAiLlmAdapter({
    apiKey: 'sk-test-key',
    baseUrl,
    modelMap: {},
    timeoutMs: 2000,
    maxRetries: 2,
    ...overrides,
  });
}

function request(overrides: Partial<LlmRequest> = {}): LlmRequest {
  return {
    tier: 'gpt-4o',
    messages: [
      { role: 'system', content: 'You are a helper.' },
      { role: 'user', content: 'Hello?' },
    ],
    maxTokens: 300,
    temperature: 0.3,
    signal: new AbortController().signal,
    grounding: { botName: 'B', passages: [], question: 'Hello?' },
    ...overrides,
  };
}

function failure(promise: Promise<unknown>): Promise<LlmError> {
  return failureOf(promise, LlmError);
}

describe('OpenAiLlmAdapter (real openai SDK against a local Chat Completions server)', () => {
  it('streams the tokens in order and takes the usage from the final usage chunk', async () => {
    handler = (_req, body, res) => streamAnswer(res, `${String(body.model)}-2024-08-06`, ['Hel', 'lo', ' there', '!']);
    const tokens: string[] = [];
    const result = await adapter().complete(request(), (t) => tokens.push(t));

    expect(tokens).toEqual(['Hel', 'lo', ' there', '!']);
    expect(result).toEqual({
      text: 'Hello there!',
      upstreamModel: 'gpt-4o-2024-08-06',
      usage: { promptTokens: 57, completionTokens: 9, estimated: false },
    });
    expect(requests).toHaveLength(1);
    const sent = requests[0];
    expect(sent.headers.authorization).toBe('Bearer sk-test-key');
    expect(sent.body).toMatchObject({
      model: 'gpt-4o',
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.3,
      max_tokens: 300,
      messages: [
        { role: 'system', content: 'You are a helper.' },
        { role: 'user', content: 'Hello?' },
      ],
    });
  });

  it('calls the upstream model of the tier: the catalogue default, or the OPENAI_MODEL_MAP override', async () => {
    handler = (_req, body, res) => streamAnswer(res, String(body.model), ['ok']);
    await adapter().complete(request({ tier: 'gpt-3.5-turbo' }), () => undefined);
    const mapped = await adapter({ modelMap: { 'gpt-3.5-turbo': 'llama3.2:1b' } }).complete(
      request({ tier: 'gpt-3.5-turbo' }),
      () => undefined,
    );
    expect(requests.map((r) => r.body.model)).toEqual(['gpt-4.1-nano', 'llama3.2:1b']);
    expect(mapped.upstreamModel).toBe('llama3.2:1b');
  });

  it('sends max_completion_tokens to OpenAI itself (no base URL) instead of max_tokens', () => {
    // Only the request shape is checked here: the field name is chosen at construction.
    const official = new OpenAiLlmAdapter({ apiKey: 'k', modelMap: {}, timeoutMs: 1000, maxRetries: 0 });
    expect((official as unknown as { maxTokensField: string }).maxTokensField).toBe('max_completion_tokens');
    expect((adapter() as unknown as { maxTokensField: string }).maxTokensField).toBe('max_tokens');
  });

  it('estimates the usage when the server sends no usage chunk', async () => {
    handler = (_req, body, res) => streamAnswer(res, String(body.model), ['Twelve chars'], { usage: false });
    const result = await adapter().complete(request(), () => undefined);
    expect(result.usage).toEqual({ promptTokens: expect.any(Number), completionTokens: 3, estimated: true });
  });

  it('retries a 500 and a 429 before the first byte, then answers once', async () => {
    let attempt = 0;
    handler = (_req, body, res) => {
      attempt += 1;
      if (attempt === 1) return jsonError(res, 500, 'The server had an error', { 'retry-after-ms': '10' });
      if (attempt === 2) return jsonError(res, 429, 'Rate limit reached', { 'retry-after-ms': '10' });
      streamAnswer(res, String(body.model), ['third time lucky']);
    };
    const tokens: string[] = [];
    const result = await adapter().complete(request(), (t) => tokens.push(t));
    expect(result.text).toBe('third time lucky');
    expect(tokens).toEqual(['third time lucky']);
    expect(requests).toHaveLength(3);
  });

  it('gives up after maxRetries on a server that keeps failing', async () => {
    handler = (_req, _body, res) => jsonError(res, 503, 'Overloaded', { 'retry-after-ms': '5' });
    const error = await failure(adapter({ maxRetries: 2 }).complete(request(), () => undefined));
    expect(error.code).toBe('UPSTREAM_FAILED');
    expect(error.message).toContain('503');
    expect(requests).toHaveLength(3);
  });

  it('does not retry a request the server refuses (400), and fails with its status', async () => {
    handler = (_req, _body, res) => jsonError(res, 400, "The model 'gpt-3.5-turbo' has been deprecated");
    const error = await failure(adapter().complete(request(), () => undefined));
    expect(error.code).toBe('UPSTREAM_FAILED');
    expect(error.message).toContain('400');
    expect(requests).toHaveLength(1);
  });

  it('times out when no response arrives (slow first byte), retrying idempotently first', async () => {
    handler = () => undefined; // never answers
    const error = await failure(adapter({ timeoutMs: 1000, maxRetries: 1 }).complete(request(), () => undefined));
    expect(error.code).toBe('UPSTREAM_TIMEOUT');
    // The first attempt timed out and was sent once more.
    expect(requests).toHaveLength(2);
  });

  it('times out when the stream opens but the first token never comes', async () => {
    handler = (_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': waiting\n\n');
    };
    const tokens: string[] = [];
    const error = await failure(adapter({ timeoutMs: 1000 }).complete(request(), (t) => tokens.push(t)));
    expect(error.code).toBe('UPSTREAM_TIMEOUT');
    expect(tokens).toEqual([]);
    expect(requests).toHaveLength(1); // a stream that started is never retried
  });

  it('answers a slow first token that comes within the timeout', async () => {
    handler = (_req, body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      setTimeout(() => streamAnswer(res, String(body.model), ['late but fine']), 600);
    };
    const result = await adapter({ timeoutMs: 1500 }).complete(request(), () => undefined);
    expect(result.text).toBe('late but fine');
  });

  it('fails (and does not retry) when the connection drops mid-answer', async () => {
    handler = (req, body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk(String(body.model), 'Half an '));
      res.write(chunk(String(body.model), 'answ'));
      setTimeout(() => req.socket.destroy(), 50);
    };
    const tokens: string[] = [];
    const error = await failure(adapter().complete(request(), (t) => tokens.push(t)));
    expect(error.code).toBe('UPSTREAM_FAILED');
    expect(tokens).toEqual(['Half an ', 'answ']);
    expect(requests).toHaveLength(1);
  });

  it('fails when the stream ends cleanly but without finishing the answer', async () => {
    handler = (_req, body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(chunk(String(body.model), 'cut o'));
    };
    const error = await failure(adapter().complete(request(), () => undefined));
    expect(error.code).toBe('UPSTREAM_FAILED');
  });

  it('fails on a server that answers plain JSON to a streaming request (nothing to charge)', async () => {
    handler = (_req, body, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'chatcmpl-json',
          object: 'chat.completion',
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content: 'not streamed' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
        }),
      );
    };
    const error = await failure(adapter().complete(request(), () => undefined));
    expect(error.code).toBe('UPSTREAM_FAILED');
  });

  it('stops the upstream call when the visitor leaves mid-stream', async () => {
    const visitor = new AbortController();
    handler = (_req, body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let i = 0;
      const timer = setInterval(() => {
        if (res.destroyed || res.writableEnded) return clearInterval(timer);
        res.write(chunk(String(body.model), `w${i++} `));
      }, 20);
    };
    const tokens: string[] = [];
    const error = await failure(
      adapter().complete(request({ signal: visitor.signal }), (t) => {
        tokens.push(t);
        if (tokens.length === 3) visitor.abort();
      }),
    );
    expect(error.code).toBe('ABORTED');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(closedConnections).toBe(1); // the upstream connection was closed, not left running
    expect(tokens).toEqual(['w0 ', 'w1 ', 'w2 ']);
  });
});

/** A chunk carrying tool-call fragments (the way OpenAI streams them: id and name first, arguments in pieces). */
function toolChunk(model: string, fragments: object[], finish: string | null = null): string {
  const payload = {
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, delta: { tool_calls: fragments }, finish_reason: finish }],
    usage: null,
  };
  return `data: ${JSON.stringify(payload)}\n\n`;
}

/** Streams a request for calls: each `[id, name, arguments]` in three fragments, then usage and [DONE]. */
function streamCalls(res: http.ServerResponse, model: string, calls: Array<[string, string, string]>, index = true) {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  calls.forEach(([id, name, args], i) => {
    const at = index ? i : 0; // Ollama-style servers reuse index 0 and tell calls apart by id
    res.write(toolChunk(model, [{ index: at, id, type: 'function', function: { name, arguments: '' } }]));
    const half = Math.floor(args.length / 2);
    res.write(toolChunk(model, [{ index: at, function: { arguments: args.slice(0, half) } }]));
    res.write(toolChunk(model, [{ index: at, function: { arguments: args.slice(half) } }]));
  });
  res.write(toolChunk(model, [], 'tool_calls'));
  res.write(chunk(model, null, null, { prompt_tokens: 40, completion_tokens: 12, total_tokens: 52 }));
  res.end('data: [DONE]\n\n');
}

const ORDER_TOOL = {
  name: 'order_status',
  description: 'Look up the status of an order by its number',
  parameters: { type: 'object', properties: { order_id: { type: 'integer' } }, required: ['order_id'] },
};

describe('OpenAiLlmAdapter with actions (tool calls through the real SDK)', () => {
  it('runs the call the model streams in fragments, gives it the result, and streams the answer; usage is summed', async () => {
    handler = (_req, body, res) => {
      const messages = body.messages as Array<{ role: string }>;
      if (messages.some((m) => m.role === 'tool')) streamAnswer(res, 'gpt-4o', ['Order 1042 ', 'has shipped.']);
      else streamCalls(res, 'gpt-4o', [['call_a', 'order_status', '{"order_id":1042}']]);
    };
    const asked: unknown[] = [];
    const tokens: string[] = [];
    const result = await adapter().complete(
      request({
        tools: {
          list: [ORDER_TOOL],
          maxCalls: 3,
          call: (call) => {
            asked.push(call);
            return Promise.resolve({ ok: true, data: { status: 'shipped' } });
          },
        },
      }),
      (t) => tokens.push(t),
    );

    expect(asked).toEqual([{ name: 'order_status', arguments: '{"order_id":1042}' }]);
    expect(result.text).toBe('Order 1042 has shipped.');
    expect(tokens.join('')).toBe('Order 1042 has shipped.');
    expect(result.usage).toEqual({ promptTokens: 40 + 57, completionTokens: 12 + 9, estimated: false });
    expect(requests).toHaveLength(2);
    expect(requests[0].body).toMatchObject({
      tool_choice: 'auto',
      parallel_tool_calls: false,
      tools: [{ type: 'function', function: ORDER_TOOL }],
    });
    expect((requests[1].body.messages as unknown[]).slice(-2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'order_status', arguments: '{"order_id":1042}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: '{"ok":true,"data":{"status":"shipped"}}' },
    ]);
  });

  it('tells calls apart by id when a server reuses index 0, and answers every id', async () => {
    handler = (_req, body, res) => {
      const messages = body.messages as Array<{ role: string }>;
      if (messages.some((m) => m.role === 'tool')) streamAnswer(res, 'llama3', ['Both checked.']);
      else
        streamCalls(
          res,
          'llama3',
          [
            ['c1', 'order_status', '{"order_id":1}'],
            ['c2', 'order_status', '{"order_id":2}'],
          ],
          false,
        );
    };
    const asked: string[] = [];
    await adapter().complete(
      request({
        tools: {
          list: [ORDER_TOOL],
          maxCalls: 3,
          call: (call) => {
            asked.push(call.arguments);
            return Promise.resolve({ ok: false, error: 'I could not reach the order system just now.' });
          },
        },
      }),
      () => undefined,
    );
    expect(asked).toEqual(['{"order_id":1}', '{"order_id":2}']);
    const answered = (requests[1].body.messages as Array<{ role: string; tool_call_id?: string }>)
      .filter((m) => m.role === 'tool')
      .map((m) => m.tool_call_id);
    expect(answered).toEqual(['c1', 'c2']);
  });

  it('stops offering calls once maxCalls are used: the next round says tool_choice none', async () => {
    handler = (_req, body, res) => {
      if (body.tool_choice === 'none') streamAnswer(res, 'gpt-4o', ['Here is what I have.']);
      else streamCalls(res, 'gpt-4o', [[`call_${requests.length}`, 'order_status', '{"order_id":7}']]);
    };
    let calls = 0;
    const result = await adapter().complete(
      request({
        tools: {
          list: [ORDER_TOOL],
          maxCalls: 3,
          call: () => {
            calls += 1;
            return Promise.resolve({ ok: true, data: { status: 'packing' } });
          },
        },
      }),
      () => undefined,
    );
    expect(calls).toBe(3);
    expect(requests.map((r) => r.body.tool_choice)).toEqual(['auto', 'auto', 'auto', 'none']);
    expect(result.text).toBe('Here is what I have.');
  });

  it('refuses calls past the bound within one batch without running them', async () => {
    handler = (_req, body, res) => {
      const messages = body.messages as Array<{ role: string }>;
      if (messages.some((m) => m.role === 'tool')) streamAnswer(res, 'gpt-4o', ['Done.']);
      else
        streamCalls(res, 'gpt-4o', [
          ['a', 'order_status', '{"order_id":1}'],
          ['b', 'order_status', '{"order_id":2}'],
        ]);
    };
    let calls = 0;
    await adapter().complete(
      request({
        tools: {
          list: [ORDER_TOOL],
          maxCalls: 1,
          call: () => {
            calls += 1;
            return Promise.resolve({ ok: true, data: {} });
          },
        },
      }),
      () => undefined,
    );
    expect(calls).toBe(1);
    const results = (requests[1].body.messages as Array<{ role: string; content: string }>).filter(
      (m) => m.role === 'tool',
    );
    expect(results.map((m) => JSON.parse(m.content) as { ok: boolean })).toEqual([
      { ok: true, data: {} },
      { ok: false, error: expect.stringContaining('No more actions') as unknown },
    ]);
  });

  it('sends no tools when the bot has no actions', async () => {
    handler = (_req, body, res) => streamAnswer(res, String(body.model), ['Hi.']);
    await adapter().complete(
      request({ tools: { list: [], maxCalls: 3, call: () => Promise.reject(new Error('no')) } }),
      () => undefined,
    );
    expect(requests[0].body).not.toHaveProperty('tools');
    expect(requests[0].body).not.toHaveProperty('tool_choice');
  });

  it('puts text said before a call and the answer after it on separate lines', async () => {
    handler = (_req, body, res) => {
      const messages = body.messages as Array<{ role: string }>;
      if (messages.some((m) => m.role === 'tool')) return streamAnswer(res, 'gpt-4o', ['It has shipped.']);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk('gpt-4o', 'Let me check.'));
      res.write(
        toolChunk(
          'gpt-4o',
          [{ index: 0, id: 'x', type: 'function', function: { name: 'order_status', arguments: '{}' } }],
          'tool_calls',
        ),
      );
      res.end('data: [DONE]\n\n');
    };
    const tokens: string[] = [];
    const result = await adapter().complete(
      request({ tools: { list: [ORDER_TOOL], maxCalls: 3, call: () => Promise.resolve({ ok: true, data: 1 }) } }),
      (t) => tokens.push(t),
    );
    expect(result.text).toBe('Let me check.\n\nIt has shipped.');
    expect(tokens.join('')).toBe(result.text);
    // The first round reported no usage: the whole message's tokens are estimated.
    expect(result.usage.estimated).toBe(true);
    expect(requests[1].body.messages).toContainEqual(
      expect.objectContaining({ role: 'assistant', content: 'Let me check.' }),
    );
  });
});
