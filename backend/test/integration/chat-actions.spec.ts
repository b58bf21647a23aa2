import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { WebhooksService } from '../../src/modules/webhooks/webhooks.service.js';
import { NOT_THE_VISITORS } from '../../src/modules/actions/action-runner.js';
import { SIGN_IN_NEEDED, unreachableSentence } from '../../src/modules/chat/turn-actions.js';
import { createChatBot, parseSse, usageOfOwner } from '../support/chat-factories.js';
import { signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/*
 * Actions in the chat (docs/product.md#actions): the model calls the bot's actions for a verified
 * visitor, through the offline demo model (the embedded default) and through the real `openai`
 * SDK against a local Chat Completions server that streams tool calls. The "shop API" is a local
 * server on 127.0.0.1 (ACTIONS_ALLOW_PRIVATE=true): it answers an order only to the customer who
 * placed it, by the verified e-mail it receives.
 */

const SITE = 'https://shop.example';
const ORDERS: Record<string, { email: string; status: string }> = {
  '1042': { email: 'ada@example.org', status: 'shipped' },
};

interface ShopRequest {
  path: string;
  query: Record<string, string>;
}

async function startShop() {
  const received: ShopRequest[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    received.push({ path: url.pathname, query: Object.fromEntries(url.searchParams) });
    const json = (status: number, body: unknown) =>
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    if (url.pathname === '/broken/1042') return json(500, { error: 'database down' });
    if (url.pathname === '/slow/1042') return void setTimeout(() => json(200, { status: 'late' }), 2500).unref();
    // Like Shopify or WooCommerce: any order by its number, with the e-mail it was placed with,
    // whoever asks (the e-mail sent is not checked).
    const careless = /^\/careless\/(\d+)$/.exec(url.pathname);
    if (careless) {
      const found = ORDERS[careless[1]];
      if (!found) return json(404, { error: 'no such order' });
      return json(200, { status: found.status, billing: { email: 'Ada@Example.org ', phone: '+1 555 0100' } });
    }
    const order = ORDERS[url.pathname.replace('/orders/', '')];
    // The shop's own rule: an order is shown to the customer who placed it, nobody else.
    if (!order || order.email !== url.searchParams.get('visitor.email')) return json(404, { error: 'no such order' });
    json(200, { status: order.status, internal: { margin: '42%' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function jwt(claims: Record<string, unknown>, secret: string): string {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const signed = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}`;
  return `${signed}.${createHmac('sha256', secret).update(signed).digest('base64url')}`;
}
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

function orderAction(base: string, path = 'orders', overrides: Record<string, unknown> = {}) {
  return {
    name: 'order_status',
    description: 'Look up the status of an order by its number',
    parameters: {
      type: 'object',
      properties: { order_id: { type: 'integer' } },
      required: ['order_id'],
    },
    method: 'GET',
    url: `${base}/${path}/{order_id}`,
    headers: [{ name: 'X-Shop-Key', value: 'shop_secret_abcdef123456' }],
    visitorFields: ['sub', 'email'],
    answerFields: ['/status'],
    ...overrides,
  };
}

async function setUp(t: TestApp, base: string, path?: string, overrides?: Record<string, unknown>) {
  const owner = await signedInAgent(t, { creditsCents: 10_000 });
  const bot = await createChatBot(t, owner.user.id, { allowedDomain: 'shop.example' });
  const secret = (await owner.agent.post(`/api/bots/${bot.id}/identity-secret`).set('Origin', t.origin)).body
    .identitySecret as string;
  const created = await owner.agent
    .post(`/api/bots/${bot.id}/actions`)
    .set('Origin', t.origin)
    .send(orderAction(base, path, overrides));
  expect(created.status).toBe(201);
  const hook = await owner.agent
    .post('/api/webhooks')
    .set('Origin', t.origin)
    .send({ url: 'http://127.0.0.1:9/hook', events: ['action.failed'] });
  expect(hook.status).toBe(201);
  return { owner, bot, secret };
}

/** One streamed widget message; `token` is the visitor's identity JWT (none: anonymous). */
async function ask(t: TestApp, botId: number, prompt: string, token?: string) {
  const response = await t
    .http()
    .post('/api/chat')
    .set('Origin', SITE)
    .set('Accept', 'text/event-stream')
    .send({ botId, prompt, ...(token ? { visitor: { token } } : {}) });
  expect(response.status).toBe(200);
  const events = parseSse(response.text);
  const done = events.find((e) => e.event === 'done')?.data as { message: string; messageId: number } | undefined;
  expect(done).toBeDefined();
  return { events, answer: done!.message, messageId: done!.messageId };
}

async function actionCalls(t: TestApp, botId: number) {
  return t.dataSource.query<
    Array<{ action_name: string; parameters: unknown; status: number | null; answer: string | null; failed: boolean }>
  >(`SELECT action_name, parameters, status, answer, failed FROM action_calls WHERE bot_id = $1 ORDER BY id`, [botId]);
}

async function failedEvents(t: TestApp, ownerId: number) {
  await t.app.get(WebhooksService).settled();
  const rows = await t.dataSource.query<Array<{ payload: string }>>(
    `SELECT d.payload FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
      WHERE e.owner_id = $1 AND d.type = 'action.failed' ORDER BY d.id`,
    [ownerId],
  );
  // The payload is stored as the exact body that is signed and sent.
  return rows.map((row) => ({ payload: JSON.parse(row.payload) as Record<string, unknown> }));
}

describe('actions in the chat, offline demo model', () => {
  let t: TestApp;
  let shop: Awaited<ReturnType<typeof startShop>>;

  beforeAll(async () => {
    shop = await startShop();
    t = await startTestApp({
      ACTIONS_ALLOW_PRIVATE: 'true',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      OFFLINE_MODEL_WORD_DELAY_MS: '0',
      CHAT_IP_RATE_LIMIT: '10000',
    });
  });
  afterAll(async () => {
    await t.close();
    await shop.close();
  });
  beforeEach(() => {
    shop.received.length = 0;
  });

  it("answers a verified visitor's order from the shop API, which received their sub and e-mail; charged once", async () => {
    const { owner, bot, secret } = await setUp(t, shop.base);
    const token = jwt({ sub: 'cust_1', email: 'ada@example.org', exp: inAnHour() }, secret);

    const { events, answer, messageId } = await ask(t, bot.id, 'Where is my order 1042?', token);

    expect(answer).toContain('status: shipped');
    expect(answer).not.toContain('margin');
    // The widget's "Checking your order…" line comes before the answer's tokens.
    const names = events.map((e) => e.event);
    expect(events.find((e) => e.event === 'action')?.data).toEqual({ subject: 'order' });
    expect(names.indexOf('action')).toBeLessThan(names.indexOf('token'));
    expect(shop.received).toEqual([
      { path: '/orders/1042', query: { 'visitor.sub': 'cust_1', 'visitor.email': 'ada@example.org' } },
    ]);
    const usage = await usageOfOwner(t, owner.user.id);
    expect(usage.rows).toBe(1);
    expect(usage.priceCents).toBeGreaterThan(0);
    expect(await actionCalls(t, bot.id)).toEqual([
      {
        action_name: 'order_status',
        parameters: { order_id: 1042 },
        status: 200,
        answer: '{"/status":"shipped"}',
        failed: false,
      },
    ]);
    const [logged] = await t.dataSource.query<Array<{ message_id: number }>>(
      `SELECT message_id FROM action_calls WHERE bot_id = $1`,
      [bot.id],
    );
    expect(logged.message_id).toBe(messageId);
    expect(await failedEvents(t, owner.user.id)).toEqual([]);
  });

  it('gives another verified visitor asking for the same order number nothing of it', async () => {
    const { bot, secret } = await setUp(t, shop.base);
    const token = jwt({ sub: 'cust_2', email: 'mallory@example.org', exp: inAnHour() }, secret);

    const { answer } = await ask(t, bot.id, 'Where is my order 1042?', token);

    expect(answer).not.toContain('shipped');
    expect(answer).toContain(unreachableSentence('order'));
    expect(shop.received[0].query['visitor.email']).toBe('mallory@example.org');
  });

  it('with the owner check, a store that answers any order shows it to its owner only; another visitor gets nothing, and no action.failed', async () => {
    const match = { visitorMatch: { pointer: '/billing/email', field: 'email' } };
    const { owner, bot, secret } = await setUp(t, shop.base, 'careless', match);
    // The order's e-mail is 'Ada@Example.org ' at the store: compared trimmed and in any case.
    const ada = jwt({ sub: 'cust_1', email: 'ada@example.org', exp: inAnHour() }, secret);
    const mallory = jwt({ sub: 'cust_2', email: 'mallory@example.org', exp: inAnHour() }, secret);

    const mine = await ask(t, bot.id, 'Where is my order 1042?', ada);
    expect(mine.answer).toContain('status: shipped');

    const theirs = await ask(t, bot.id, 'Where is my order 1042?', mallory);
    expect(theirs.answer).toContain('I could not find that order for your account.');
    for (const leaked of ['shipped', 'Ada@', 'ada@', '555']) expect(theirs.answer).not.toContain(leaked);
    // The store was asked both times (it answers anyone): the check is Botsmith's.
    expect(shop.received.map((r) => [r.path, r.query['visitor.email']])).toEqual([
      ['/careless/1042', 'ada@example.org'],
      ['/careless/1042', 'mallory@example.org'],
    ]);
    // Logged for the owner with the reason and without the answer; not an API failure.
    const calls = await t.dataSource.query<
      Array<{ status: number; answer: string | null; error: string | null; failed: boolean }>
    >(`SELECT status, answer, error, failed FROM action_calls WHERE bot_id = $1 ORDER BY id`, [bot.id]);
    expect(calls).toEqual([
      { status: 200, answer: '{"/status":"shipped"}', error: null, failed: false },
      { status: 200, answer: null, error: NOT_THE_VISITORS, failed: false },
    ]);
    expect(await failedEvents(t, owner.user.id)).toEqual([]);

    // The owner's test run reports the mismatch, and shows nothing of the answer either.
    const actionId = (await owner.agent.get(`/api/bots/${bot.id}/actions`).set('Origin', t.origin)).body.actions[0]
      .id as number;
    const test = (visitor: object) =>
      owner.agent
        .post(`/api/bots/${bot.id}/actions/${actionId}/test`)
        .set('Origin', t.origin)
        .send({ parameters: { order_id: 1042 }, visitor });
    const refused = await test({ sub: 'cust_2', email: 'mallory@example.org' });
    expect(refused.status).toBe(200);
    expect(refused.body.result).toMatchObject({
      status: 200,
      answer: null,
      error: 'The answer does not belong to this visitor.',
    });
    expect(refused.text).not.toContain('shipped');
    const allowed = await test({ sub: 'cust_1', email: 'ADA@example.org' });
    expect(allowed.body.result).toMatchObject({ status: 200, answer: '{"/status":"shipped"}', error: null });
  });

  it('asks an anonymous visitor, and one with a forged, expired, other-bot or pre-rotation token, to sign in; the shop is never called', async () => {
    const { owner, bot, secret } = await setUp(t, shop.base);
    const other = await setUp(t, shop.base);
    const claims = { sub: 'cust_1', email: 'ada@example.org', exp: inAnHour() };
    const rotatedAway = jwt(claims, secret);
    const rotated = await owner.agent.post(`/api/bots/${bot.id}/identity-secret`).set('Origin', t.origin);
    const current = rotated.body.identitySecret as string;
    const tokens = [
      undefined,
      jwt(claims, 'not the secret'),
      jwt({ ...claims, exp: Math.floor(Date.now() / 1000) - 120 }, current),
      jwt(claims, other.secret),
      rotatedAway,
    ];
    for (const token of tokens) {
      const { answer, events } = await ask(t, bot.id, 'Where is my order 1042?', token);
      expect(answer).toContain(SIGN_IN_NEEDED);
      expect(events.some((e) => e.event === 'action')).toBe(false);
    }
    expect(shop.received).toEqual([]);
    // Refused before any request: logged for the owner, no action.failed event.
    // Not failures of the owner's API either: the inbox's "Action failed" filter leaves them out.
    expect((await actionCalls(t, bot.id)).map((c) => [c.status, c.failed])).toEqual(Array(5).fill([null, false]));
    expect(await failedEvents(t, owner.user.id)).toEqual([]);
  });

  it("explains a shop API's 500 and timeout to the visitor, still answers, and sends action.failed for each", async () => {
    const broken = await setUp(t, shop.base, 'broken');
    const token = jwt({ sub: 'cust_1', email: 'ada@example.org', exp: inAnHour() }, broken.secret);
    const first = await ask(t, broken.bot.id, 'Where is my order 1042?', token);
    expect(first.answer).toContain(unreachableSentence('order'));

    const slow = await setUp(t, shop.base, 'slow', { timeoutMs: 1000 });
    const slowToken = jwt({ sub: 'cust_1', email: 'ada@example.org', exp: inAnHour() }, slow.secret);
    const second = await ask(t, slow.bot.id, 'Where is my order 1042?', slowToken);
    expect(second.answer).toContain(unreachableSentence('order'));

    // Failures of the owner's API: what the inbox's "Action failed" filter and the counters count.
    expect((await actionCalls(t, broken.bot.id)).map((c) => c.failed)).toEqual([true]);
    expect((await actionCalls(t, slow.bot.id)).map((c) => c.failed)).toEqual([true]);
    const [brokenEvent] = await failedEvents(t, broken.owner.user.id);
    expect(brokenEvent.payload).toMatchObject({
      data: expect.objectContaining({ botId: broken.bot.id, action: 'order_status', status: 500 }) as unknown,
    });
    const [slowEvent] = await failedEvents(t, slow.owner.user.id);
    expect(slowEvent.payload).toMatchObject({
      data: expect.objectContaining({ action: 'order_status', status: null }) as unknown,
    });
    // Each message is in the ledger once.
    expect((await usageOfOwner(t, broken.owner.user.id)).rows).toBe(1);
    expect((await usageOfOwner(t, slow.owner.user.id)).rows).toBe(1);
  });

  it("never logs an action's header secret, whether the call works, fails or is tested", async () => {
    const written: string[] = [];
    const capture = (stream: NodeJS.WriteStream) => {
      const original = stream.write.bind(stream);
      stream.write = (chunk: unknown, ...rest: unknown[]) => {
        written.push(String(chunk));
        return (original as (...args: unknown[]) => boolean)(chunk, ...rest);
      };
      return () => (stream.write = original);
    };
    const restore = [capture(process.stdout), capture(process.stderr)];
    // Every level, for this test: the suite's apps log errors only.
    t.app.useLogger(['log', 'error', 'warn', 'debug', 'verbose', 'fatal']);
    try {
      const working = await setUp(t, shop.base);
      const broken = await setUp(t, shop.base, 'broken');
      const claims = { sub: 'cust_1', email: 'ada@example.org', exp: inAnHour() };
      await ask(t, working.bot.id, 'Where is my order 1042?', jwt(claims, working.secret));
      await ask(t, broken.bot.id, 'Where is my order 1042?', jwt(claims, broken.secret));
      const [action] = (await broken.owner.agent.get(`/api/bots/${broken.bot.id}/actions`)).body.actions as Array<{
        id: number;
      }>;
      const tested = await broken.owner.agent
        .post(`/api/bots/${broken.bot.id}/actions/${action.id}/test`)
        .set('Origin', t.origin)
        .send({ parameters: { order_id: 1042 }, visitor: { sub: 'cust_1', email: 'ada@example.org' } });
      expect(tested.status).toBe(200);
      expect(JSON.stringify(tested.body)).not.toContain('shop_secret_abcdef123456');
      await t.app.get(WebhooksService).settled();
    } finally {
      t.app.useLogger(['error', 'fatal']);
      for (const undo of restore) undo();
    }
    // The lines were written (the request log names the routes), and none holds the secret.
    expect(written.join('')).toContain('/actions');
    expect(written.join('')).not.toContain('shop_secret_abcdef123456');
  });

  it('calls no action for a question that names none, and a bot without actions answers as before', async () => {
    const { bot, secret } = await setUp(t, shop.base);
    const token = jwt({ sub: 'cust_1', email: 'ada@example.org', exp: inAnHour() }, secret);
    const { events } = await ask(t, bot.id, 'What are your opening hours?', token);
    expect(events.some((e) => e.event === 'action')).toBe(false);
    expect(shop.received).toEqual([]);
    expect(await actionCalls(t, bot.id)).toEqual([]);
  });
});

describe('actions in the chat, OpenAI-compatible model with tool calls (real SDK)', () => {
  let t: TestApp;
  let shop: Awaited<ReturnType<typeof startShop>>;
  let upstream: http.Server;
  /** What the fake model asks for in its first round: the raw arguments of order_status, in order. */
  let plannedCalls: string[];
  let upstreamBodies: Array<Record<string, unknown>>;

  function toolChunk(fragments: object[], finish: string | null = null): string {
    const choices = [{ index: 0, delta: { tool_calls: fragments }, finish_reason: finish }];
    return `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices })}\n\n`;
  }
  function textChunk(content: string | null, finish: string | null = null, usage?: object): string {
    const choices =
      content === null && finish === null
        ? []
        : [{ index: 0, delta: content ? { content } : {}, finish_reason: finish }];
    return `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices, usage: usage ?? null })}\n\n`;
  }

  beforeAll(async () => {
    shop = await startShop();
    upstream = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        const body = JSON.parse(raw) as { messages: Array<{ role: string; content: string }>; tool_choice?: string };
        upstreamBodies.push(body);
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const toolResults = body.messages.filter((m) => m.role === 'tool');
        const next = plannedCalls[toolResults.length];
        if (next !== undefined && body.tool_choice === 'auto') {
          const id = `call_${toolResults.length}`;
          res.write(toolChunk([{ index: 0, id, type: 'function', function: { name: 'order_status', arguments: '' } }]));
          res.write(toolChunk([{ index: 0, function: { arguments: next } }]));
          res.write(toolChunk([], 'tool_calls'));
          res.write(textChunk(null, null, { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 }));
          return res.end('data: [DONE]\n\n');
        }
        // The answer says what the last result was, so the test can read it.
        const last = toolResults.at(-1)?.content ?? 'no action';
        res.write(textChunk(`Result: ${last}`));
        res.write(textChunk(null, 'stop'));
        res.write(textChunk(null, null, { prompt_tokens: 200, completion_tokens: 20, total_tokens: 220 }));
        res.end('data: [DONE]\n\n');
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    t = await startTestApp({
      ACTIONS_ALLOW_PRIVATE: 'true',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      OPENAI_API_KEY: 'sk-test-local',
      OPENAI_BASE_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`,
      OPENAI_MAX_RETRIES: '0',
      CHAT_IP_RATE_LIMIT: '10000',
    });
  });
  afterAll(async () => {
    await t.close();
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
    await shop.close();
  });
  beforeEach(() => {
    shop.received.length = 0;
    upstreamBodies = [];
  });

  it('runs the streamed tool call for a verified visitor and charges the message once, with every round’s tokens', async () => {
    const { owner, bot, secret } = await setUp(t, shop.base);
    plannedCalls = ['{"order_id":1042}'];
    const token = jwt({ sub: 'cust_1', email: 'ada@example.org', exp: inAnHour() }, secret);

    const { answer } = await ask(t, bot.id, 'where is my order 1042?', token);

    expect(answer).toBe('Result: {"ok":true,"data":{"/status":"shipped"}}');
    expect(shop.received).toHaveLength(1);
    expect(upstreamBodies[0]).toMatchObject({
      tools: [{ type: 'function', function: expect.objectContaining({ name: 'order_status' }) as unknown }],
    });
    const [row] = await t.dataSource.query<Array<{ prompt_tokens: number; completion_tokens: number }>>(
      `SELECT prompt_tokens, completion_tokens FROM usage_events WHERE owner_id = $1`,
      [owner.user.id],
    );
    expect([Number(row.prompt_tokens), Number(row.completion_tokens)]).toEqual([300, 30]);
    expect((await usageOfOwner(t, owner.user.id)).rows).toBe(1);
  });

  it('never sends parameters outside the schema to the shop API: the model is told once, then to stop', async () => {
    const { bot, secret } = await setUp(t, shop.base);
    plannedCalls = ['{"order_id":"1042; DROP"}', '{"order_id":1042,"admin":true}', '{"order_id":1042}'];
    const token = jwt({ sub: 'cust_1', email: 'ada@example.org', exp: inAnHour() }, secret);

    const { answer } = await ask(t, bot.id, 'where is my order 1042?', token);

    // The third call is valid and runs: the model got one explanation, then one "stop" for the second.
    const results = upstreamBodies.at(-1)!.messages as Array<{ role: string; content: string }>;
    const told = results.filter((m) => m.role === 'tool').map((m) => JSON.parse(m.content) as { error?: string });
    expect(told[0].error).toContain('"order_id" must be a whole number.');
    expect(told[1].error).toContain('Do not call order_status again');
    expect(shop.received.map((r) => r.path)).toEqual(['/orders/1042']);
    expect(answer).toContain('shipped');
  });

  it("answers a JSON (not streamed) request the same way, and from the owner's server with X-Visitor-Token", async () => {
    const { owner, bot, secret } = await setUp(t, shop.base);
    plannedCalls = ['{"order_id":1042}'];
    const token = jwt({ sub: 'cust_1', email: 'ada@example.org', exp: inAnHour() }, secret);
    const json = await t
      .http()
      .post('/api/chat')
      .set('Origin', SITE)
      .send({ botId: bot.id, prompt: 'where is my order 1042?', visitor: { token } });
    expect(json.status).toBe(200);
    expect(json.body.message).toBe('Result: {"ok":true,"data":{"/status":"shipped"}}');

    const { apiKey } = (await owner.agent.get(`/api/bots/${bot.id}`)).body.bot as { apiKey: string };
    const server = await t
      .http()
      .post('/api/chat')
      .set('Authorization', `Bearer ${apiKey}`)
      .set('X-Visitor-Token', token)
      .send({ botId: bot.id, prompt: 'where is my order 1042?' });
    expect(server.status).toBe(200);
    expect(server.body.message).toContain('shipped');
    expect(shop.received.map((r) => r.query['visitor.sub'])).toEqual(['cust_1', 'cust_1']);
  });

  it('makes at most 3 calls for one message, then asks the model to answer', async () => {
    const { bot, secret } = await setUp(t, shop.base);
    plannedCalls = ['{"order_id":1042}', '{"order_id":1042}', '{"order_id":1042}', '{"order_id":1042}'];
    const token = jwt({ sub: 'cust_1', email: 'ada@example.org', exp: inAnHour() }, secret);
    await ask(t, bot.id, 'where is my order 1042?', token);
    expect(shop.received).toHaveLength(3);
    expect(upstreamBodies.map((b) => b.tool_choice)).toEqual(['auto', 'auto', 'auto', 'none']);
  });
});
