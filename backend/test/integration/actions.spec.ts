import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { ACTION_SECRET_MASK } from '@botsmith/contract';
import type request from 'supertest';
import type { ConnectTarget } from '../../src/common/outbound/guarded-agent.js';
import { ActionsService } from '../../src/modules/actions/actions.service.js';
import { ActionRunner, UNREACHABLE, type RunnableAction } from '../../src/modules/actions/action-runner.js';
import { createBotViaApi } from '../support/bot-factories.js';
import { signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/*
 * Actions (docs/product.md#actions): the owner's CRUD routes, secrets sealed and never returned,
 * and test runs against a local "shop API" on 127.0.0.1 (ACTIONS_ALLOW_PRIVATE=true). The SSRF
 * refusals use a stub resolver and a refusing connect hook: no traffic leaves loopback.
 */

const SECRET = 'sk_live_do_not_show_1234567890';
const NEW_SECRET = 'sk_live_replaced_0987654321';

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

async function startShop() {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const path = new URL(req.url!, 'http://x').pathname;
      const json = (status: number, body: unknown) =>
        res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
      if (path.startsWith('/orders/')) {
        return json(200, {
          id: decodeURIComponent(path.slice('/orders/'.length)),
          status: 'shipped',
          carrier: { name: 'Parcel Co', tracking: 'PC123' },
          customer: { card: '4242 4242 4242 4242', address: '1 Secret Lane' },
        });
      }
      if (path === '/tickets') return json(201, { ticket: { id: 77 }, internal: 'hidden' });
      if (path === '/slow') return void setTimeout(() => json(200, { status: 'late' }), 3000).unref();
      if (path === '/fail') return json(500, { error: 'boom' });
      if (path === '/redirect') return res.writeHead(302, { Location: 'http://127.0.0.1:1/' }).end();
      if (path === '/big') return json(200, { blob: 'x'.repeat(300 * 1024) });
      if (path === '/text') return res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>hi</html>');
      json(404, { error: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('actions', () => {
  let t: TestApp;
  let owner: request.Agent;
  let other: request.Agent;
  let botId: number;
  let otherBotId: number;
  let shop: Awaited<ReturnType<typeof startShop>>;
  /** Every response body the tests saw: none may hold a header's value. */
  const seen: string[] = [];

  beforeAll(async () => {
    t = await startTestApp({ ACTIONS_ALLOW_PRIVATE: 'true' });
    owner = (await signedInAgent(t)).agent;
    other = (await signedInAgent(t)).agent;
    botId = await createBotViaApi(t, owner);
    otherBotId = await createBotViaApi(t, other);
    shop = await startShop();
  });
  afterAll(async () => {
    for (const text of seen) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(NEW_SECRET);
    }
    await shop.close();
    await t.close();
  });
  beforeEach(async () => {
    shop.received.length = 0;
    await t.dataSource.query(`DELETE FROM bot_actions`);
    // Each test starts a new minute of test runs; the limit has its own test.
    const service: unknown = t.app.get(ActionsService);
    (service as { testCounts: Map<number, unknown> }).testCounts.clear();
  });

  function orderAction(overrides: Record<string, unknown> = {}) {
    return {
      name: 'order_status',
      description: 'Look up the status of an order by its number',
      parameters: {
        type: 'object',
        properties: { order_id: { type: 'string', maxLength: 20 }, detail: { type: 'boolean' } },
        required: ['order_id'],
      },
      method: 'GET',
      url: `${shop.base}/orders/{order_id}`,
      headers: [{ name: 'X-Api-Key', value: SECRET }],
      visitorFields: ['sub', 'email', 'plan'],
      answerFields: ['/status', '/carrier/name'],
      ...overrides,
    };
  }

  async function call(
    agent: request.Agent,
    method: 'get' | 'post' | 'put' | 'delete',
    path: string,
    body?: unknown,
  ): Promise<request.Response> {
    let req = agent[method](path).set('Origin', t.origin);
    if (body !== undefined) req = req.send(body as object);
    const response = await req;
    seen.push(response.text);
    return response;
  }

  async function create(body: unknown = orderAction(), bot = botId) {
    return call(owner, 'post', `/api/bots/${bot}/actions`, body);
  }

  async function createdId(body: unknown = orderAction()): Promise<number> {
    const response = await create(body);
    expect(response.status).toBe(201);
    return response.body.action.id as number;
  }

  it('creates, lists, replaces and deletes an action; header values are masked and stored sealed', async () => {
    const created = await create();
    expect(created.status).toBe(201);
    expect(created.body.action).toMatchObject({
      name: 'order_status',
      method: 'GET',
      url: `${shop.base}/orders/{order_id}`,
      headers: [{ name: 'X-Api-Key', value: ACTION_SECRET_MASK }],
      visitorFields: ['sub', 'email', 'plan'],
      requiresVerifiedVisitor: true,
      timeoutMs: 8000,
      answerFields: ['/status', '/carrier/name'],
    });
    const id = created.body.action.id as number;
    const [stored] = await t.dataSource.query(`SELECT headers::text AS headers FROM bot_actions WHERE id = $1`, [id]);
    expect(stored.headers).not.toContain(SECRET);
    expect(stored.headers).toMatch(/"sealed": ?"v1\./);

    const listed = await call(owner, 'get', `/api/bots/${botId}/actions`);
    expect(listed.status).toBe(200);
    expect(listed.body.actions).toEqual([created.body.action]);

    // A header without a value keeps the stored one.
    const kept = await call(
      owner,
      'put',
      `/api/bots/${botId}/actions/${id}`,
      orderAction({ description: 'Order status', headers: [{ name: 'X-Api-Key' }], timeoutMs: 5000 }),
    );
    expect(kept.status).toBe(200);
    expect(kept.body.action).toMatchObject({ description: 'Order status', timeoutMs: 5000 });
    await call(owner, 'post', `/api/bots/${botId}/actions/${id}/test`, { parameters: { order_id: '1' } });
    expect(shop.received.at(-1)!.headers['x-api-key']).toBe(SECRET);

    // The mask sent back as a value keeps it too; a new value replaces it.
    expect(
      (
        await call(
          owner,
          'put',
          `/api/bots/${botId}/actions/${id}`,
          orderAction({ headers: [{ name: 'x-api-key', value: ACTION_SECRET_MASK }] }),
        )
      ).status,
    ).toBe(200);
    await call(owner, 'post', `/api/bots/${botId}/actions/${id}/test`, { parameters: { order_id: '1' } });
    expect(shop.received.at(-1)!.headers['x-api-key']).toBe(SECRET);
    expect(
      (
        await call(
          owner,
          'put',
          `/api/bots/${botId}/actions/${id}`,
          orderAction({ headers: [{ name: 'X-Api-Key', value: NEW_SECRET }] }),
        )
      ).status,
    ).toBe(200);
    await call(owner, 'post', `/api/bots/${botId}/actions/${id}/test`, { parameters: { order_id: '1' } });
    expect(shop.received.at(-1)!.headers['x-api-key']).toBe(NEW_SECRET);

    // A new header must come with its value.
    const missing = await call(
      owner,
      'put',
      `/api/bots/${botId}/actions/${id}`,
      orderAction({ headers: [{ name: 'X-Other' }] }),
    );
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'Enter the value of the header "X-Other".', code: 'ACTION_INVALID' });

    expect((await call(owner, 'delete', `/api/bots/${botId}/actions/${id}`)).status).toBe(204);
    expect((await call(owner, 'delete', `/api/bots/${botId}/actions/${id}`)).body).toEqual({
      error: 'Action not found.',
      code: 'ACTION_NOT_FOUND',
    });
    expect((await call(owner, 'get', `/api/bots/${botId}/actions`)).body).toEqual({ actions: [] });
  });

  it('refuses an 11th action and a second action of the same name', async () => {
    for (let i = 0; i < 10; i += 1) await createdId(orderAction({ name: `action_${i}` }));
    const eleventh = await create(orderAction({ name: 'action_10' }));
    expect(eleventh.status).toBe(409);
    expect(eleventh.body).toEqual({
      error: 'A bot can have at most 10 actions. Delete one to add another.',
      code: 'ACTION_LIMIT_REACHED',
    });
    await t.dataSource.query(`DELETE FROM bot_actions WHERE name <> 'action_0'`);
    const twin = await create(orderAction({ name: 'action_0' }));
    expect(twin.status).toBe(409);
    expect(twin.body.code).toBe('ACTION_NAME_TAKEN');
    const second = await createdId(orderAction({ name: 'action_1' }));
    const renamed = await call(owner, 'put', `/api/bots/${botId}/actions/${second}`, orderAction({ name: 'action_0' }));
    expect(renamed.status).toBe(409);
  });

  it.each([
    ['a name not in snake_case', { name: 'Order Status' }],
    ['a name too long', { name: 'a'.repeat(65) }],
    ['a blank description', { description: '   ' }],
    ['an object parameter', { parameters: { type: 'object', properties: { o: { type: 'object' } } } }],
    ['an unknown schema keyword', { parameters: { type: 'object', properties: {}, $ref: '#/x' } }],
    ['a pattern', { parameters: { type: 'object', properties: { o: { type: 'string', pattern: '.*' } } } }],
    ['an ftp URL', { url: 'ftp://shop.example/orders/{order_id}' }],
    ['the metadata address', { url: 'http://169.254.169.254/latest/{order_id}' }],
    ['a placeholder in the host', { url: 'https://{order_id}.example/' }],
    ['a CRLF in a header value', { headers: [{ name: 'X-Api-Key', value: 'a\r\nHost: evil' }] }],
    ['a Host header', { headers: [{ name: 'Host', value: 'evil.example' }] }],
    [
      'a header given twice',
      {
        headers: [
          { name: 'X-A', value: '1' },
          { name: 'x-a', value: '2' },
        ],
      },
    ],
    ['a header that is not an object', { headers: ['X-A: 1'] }],
    ['11 headers', { headers: Array.from({ length: 11 }, (_, i) => ({ name: `X-${i}`, value: 'v' })) }],
    ['a timeout of 20 s', { timeoutMs: 20000 }],
    ['a timeout that is not a number', { timeoutMs: '8000' }],
    ['no answer fields', { answerFields: [] }],
    ['an answer field that is not a pointer', { answerFields: ['status'] }],
    ['a visitor field that is not a name', { visitorFields: ['a.b'] }],
    ['the method PUT', { method: 'PUT' }],
    ['parameters that are a list', { parameters: [] }],
    ['an unknown field', { script: 'x' }],
    ['an owner check that is a string', { visitorMatch: '/email' }],
    ['an owner check that is not a pointer', { visitorMatch: { pointer: 'email', field: 'email' } }],
    ['an owner check on another field', { visitorMatch: { pointer: '/email', field: 'name' } }],
  ])('refuses %s with 400', async (_name, overrides) => {
    const response = await create(orderAction(overrides));
    expect(response.status).toBe(400);
    expect(typeof response.body.error).toBe('string');
    expect(JSON.stringify(response.body)).not.toMatch(/at \w+ \(|node_modules/);
    expect((await t.dataSource.query(`SELECT count(*)::int AS n FROM bot_actions`))[0].n).toBe(0);
  });

  it('stores the owner check, shows it back, clears it with null; refuses it for an action open to anyone', async () => {
    const match = { pointer: '/billing/email', field: 'email' };
    const created = await create(orderAction({ visitorMatch: match }));
    expect(created.status).toBe(201);
    expect(created.body.action.visitorMatch).toEqual(match);
    const id = created.body.action.id as number;
    expect((await call(owner, 'get', `/api/bots/${botId}/actions`)).body.actions[0].visitorMatch).toEqual(match);

    const open = await call(
      owner,
      'put',
      `/api/bots/${botId}/actions/${id}`,
      orderAction({ headers: [{ name: 'X-Api-Key' }], requiresVerifiedVisitor: false, visitorMatch: match }),
    );
    expect(open.status).toBe(400);
    expect(open.body).toEqual({
      error: 'The answer can only be matched to a verified visitor: turn on "Only for verified visitors" to check it.',
      code: 'ACTION_INVALID',
    });
    const [kept] = await t.dataSource.query(`SELECT visitor_match FROM bot_actions WHERE id = $1`, [id]);
    expect(kept.visitor_match).toEqual(match);

    const cleared = await call(
      owner,
      'put',
      `/api/bots/${botId}/actions/${id}`,
      orderAction({ headers: [{ name: 'X-Api-Key' }], visitorMatch: null }),
    );
    expect(cleared.status).toBe(200);
    expect(cleared.body.action.visitorMatch).toBeNull();
    // An action saved without one (as before the check existed) has none.
    expect((await create(orderAction({ name: 'other_action' }))).body.action.visitorMatch).toBeNull();
  });

  it("answers 404 on every route for another owner's bot or action", async () => {
    const mine = await createdId();
    const theirs = (await call(other, 'post', `/api/bots/${otherBotId}/actions`, orderAction())).body.action
      .id as number;
    const notFoundBot = { error: 'Bot not found.', code: 'BOT_NOT_FOUND' };
    const routes: Array<['get' | 'post' | 'put' | 'delete', string, unknown?]> = [
      ['get', `/api/bots/${otherBotId}/actions`],
      ['post', `/api/bots/${otherBotId}/actions`, orderAction({ name: 'sneaky' })],
      ['put', `/api/bots/${otherBotId}/actions/${theirs}`, orderAction()],
      ['delete', `/api/bots/${otherBotId}/actions/${theirs}`],
      ['post', `/api/bots/${otherBotId}/actions/${theirs}/test`, { parameters: { order_id: '1' } }],
    ];
    for (const [method, path, body] of routes) {
      const response = await call(owner, method, path, body);
      expect([method, path, response.status]).toEqual([method, path, 404]);
      expect(response.body.code).toBe(notFoundBot.code);
    }
    // Their action's id under my bot: not found either.
    for (const [method, path, body] of [
      ['put', `/api/bots/${botId}/actions/${theirs}`, orderAction()],
      ['delete', `/api/bots/${botId}/actions/${theirs}`],
      ['post', `/api/bots/${botId}/actions/${theirs}/test`, { parameters: { order_id: '1' } }],
    ] as Array<['put' | 'delete' | 'post', string, unknown?]>) {
      const response = await call(owner, method, path, body);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: 'Action not found.', code: 'ACTION_NOT_FOUND' });
    }
    expect(shop.received).toEqual([]);
    const [row] = await t.dataSource.query(`SELECT name FROM bot_actions WHERE id = $1`, [theirs]);
    expect(row.name).toBe('order_status');
    expect(mine).toBeGreaterThan(0);
  });

  it("goes with its bot: deleting the bot deletes the bot's actions", async () => {
    const doomedBot = await createBotViaApi(t, owner, 'Doomed');
    expect((await create(orderAction(), doomedBot)).status).toBe(201);
    expect((await call(owner, 'delete', `/api/bots/${doomedBot}`)).status).toBeLessThan(300);
    const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM bot_actions WHERE bot_id = $1`, [
      doomedBot,
    ]);
    expect(n).toBe(0);
  });

  describe('test runs against the local shop API', () => {
    it('calls it with the path parameter, the rest in the query, the visitor and the secret; answers the filtered fields', async () => {
      const id = await createdId();
      const response = await call(owner, 'post', `/api/bots/${botId}/actions/${id}/test`, {
        parameters: { order_id: 'A 1042/x', detail: true },
        visitor: { sub: 'cust_7', email: 'ann@example.com', attributes: { plan: 'pro', tier: 3 } },
      });
      expect(response.status).toBe(200);
      const { result } = response.body;
      expect(result).toMatchObject({
        status: 200,
        error: null,
        truncated: false,
        request: {
          method: 'GET',
          url: `${shop.base}/orders/A%201042%2Fx?detail=true&visitor.sub=cust_7&visitor.email=ann%40example.com&visitor.plan=pro`,
          headers: { 'X-Api-Key': ACTION_SECRET_MASK },
          body: null,
        },
      });
      expect(JSON.parse(result.answer)).toEqual({ '/status': 'shipped', '/carrier/name': 'Parcel Co' });
      expect(result.answer).not.toContain('4242');
      expect(result.durationMs).toBeGreaterThanOrEqual(0);
      expect(shop.received).toHaveLength(1);
      expect(shop.received[0]).toMatchObject({
        method: 'GET',
        url: '/orders/A%201042%2Fx?detail=true&visitor.sub=cust_7&visitor.email=ann%40example.com&visitor.plan=pro',
      });
      expect(shop.received[0].headers['x-api-key']).toBe(SECRET);
    });

    it('POSTs the parameters as JSON', async () => {
      const id = await createdId(
        orderAction({
          name: 'create_ticket',
          method: 'POST',
          url: `${shop.base}/tickets`,
          parameters: {
            type: 'object',
            properties: { subject: { type: 'string' }, urgency: { type: 'string', enum: ['low', 'high'] } },
            required: ['subject'],
          },
          visitorFields: ['email'],
          answerFields: ['/ticket/id'],
        }),
      );
      const response = await call(owner, 'post', `/api/bots/${botId}/actions/${id}/test`, {
        parameters: { subject: 'Broken mug', urgency: 'high' },
        visitor: { sub: 'cust_7', email: 'ann@example.com' },
      });
      expect(response.body.result).toMatchObject({ status: 201, error: null, answer: '{"/ticket/id":77}' });
      expect(JSON.parse(shop.received[0].body)).toEqual({
        subject: 'Broken mug',
        urgency: 'high',
        visitor: { email: 'ann@example.com' },
      });
      expect(shop.received[0].headers['content-type']).toBe('application/json');
    });

    it('refuses invalid or unknown parameters before any request', async () => {
      const id = await createdId();
      for (const parameters of [
        { order_id: '1', coupon: 'FREE' },
        { order_id: 'x'.repeat(21) },
        { detail: true },
        { order_id: '..' },
      ]) {
        const response = await call(owner, 'post', `/api/bots/${botId}/actions/${id}/test`, { parameters });
        expect(response.status).toBe(200);
        expect(response.body.result).toMatchObject({ request: null, status: null, answer: null });
        expect(typeof response.body.result.error).toBe('string');
      }
      expect(shop.received).toEqual([]);
    });

    it.each([
      ['a timeout', '/slow', { timeoutMs: 1000 }, { status: null, error: 'No answer within 1 s.' }],
      ['a 500', '/fail', {}, { status: 500, error: 'The API answered HTTP 500.' }],
      [
        'a redirect (not followed)',
        '/redirect',
        {},
        { status: 302, error: 'The API answered with a redirect (HTTP 302), which is not followed.' },
      ],
      ['an answer over 256 KB', '/big', {}, { status: 200, error: 'The answer is larger than 256 KB.' }],
      ['an answer that is not JSON', '/text', {}, { status: 200, error: 'The answer is not JSON.' }],
    ])('reports %s as a result, not an HTTP error', async (_name, path, overrides, expected) => {
      const id = await createdId(
        orderAction({ url: `${shop.base}${path}`, parameters: { type: 'object', properties: {} }, ...overrides }),
      );
      const response = await call(owner, 'post', `/api/bots/${botId}/actions/${id}/test`, { parameters: {} });
      expect(response.status).toBe(200);
      expect(response.body.result).toMatchObject({ ...expected, answer: null });
      expect(shop.received.filter((r) => r.url.startsWith('/orders'))).toEqual([]);
    });

    it('answers 429 past 10 test runs a minute', async () => {
      const id = await createdId();
      for (let i = 0; i < 10; i += 1) {
        expect(
          (await call(owner, 'post', `/api/bots/${botId}/actions/${id}/test`, { parameters: { order_id: `${i}` } }))
            .status,
        ).toBe(200);
      }
      const over = await call(owner, 'post', `/api/bots/${botId}/actions/${id}/test`, {
        parameters: { order_id: '11' },
      });
      expect(over.status).toBe(429);
      expect(over.body).toEqual({ error: 'Too many test runs. Please wait a minute.', code: 'RATE_LIMITED' });
      expect(over.headers['retry-after']).toMatch(/^\d+$/);
      expect(shop.received).toHaveLength(10);
    });

    it('refuses a hostile test body with 400', async () => {
      const id = await createdId();
      for (const body of [
        { parameters: [] },
        { parameters: 'x' },
        { parameters: {}, visitor: [] },
        { parameters: {}, visitor: { sub: 'x'.repeat(300) } },
        { parameters: {}, visitor: { attributes: { a: { b: 1 } } } },
        { parameters: {}, visitor: { token: 'x' } },
      ]) {
        const response = await call(owner, 'post', `/api/bots/${botId}/actions/${id}/test`, body);
        expect([JSON.stringify(body), response.status]).toEqual([JSON.stringify(body), 400]);
      }
      expect(shop.received).toEqual([]);
    });
  });
});

describe('actions: the SSRF guard (stub resolver, refusing connect hook)', () => {
  const PUBLIC_ADDRESS = '93.184.215.14';
  const action: RunnableAction = {
    name: 'order_status',
    parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
    method: 'GET',
    url: 'https://shop.example/orders/{order_id}',
    headers: [],
    visitorFields: [],
    requiresVerifiedVisitor: false,
    timeoutMs: 5000,
    answerFields: ['/status'],
    visitorMatch: null,
  };

  function network(answers: string[]) {
    const connections: ConnectTarget[] = [];
    return {
      connections,
      resolve: async () => answers.map((address) => ({ address, family: net.isIPv6(address) ? 6 : 4 }) as const),
      connect: (target: ConnectTarget) => {
        connections.push(target);
        const socket = new net.Socket();
        process.nextTick(() =>
          socket.destroy(Object.assign(new Error('refused by the test'), { code: 'ECONNREFUSED' })),
        );
        return socket;
      },
    };
  }

  it.each([
    ['a private address', ['10.0.0.5']],
    ['loopback', ['127.0.0.1']],
    ['cloud metadata', ['169.254.169.254']],
    ['a public and a private address together', [PUBLIC_ADDRESS, '192.168.1.1']],
  ])('refuses %s without connecting', async (_name, addresses) => {
    const stub = network(addresses);
    const runner = new ActionRunner({ allowPrivate: false, ...stub });
    const result = await runner.run(action, { order_id: '1' }, null);
    runner.destroy();
    expect(result).toMatchObject({ status: null, answer: null, error: UNREACHABLE });
    expect(stub.connections).toEqual([]);
  });

  it('refuses a literal loopback address without the test flag', async () => {
    const stub = network([]);
    const runner = new ActionRunner({ allowPrivate: false, ...stub });
    const result = await runner.run({ ...action, url: 'https://127.0.0.1/orders/{order_id}' }, { order_id: '1' }, null);
    runner.destroy();
    expect(result.error).toBe('Refused: the address is not allowed (loopback).');
    expect(stub.connections).toEqual([]);
  });

  it('connects only to the address it checked', async () => {
    const stub = network([PUBLIC_ADDRESS]);
    const runner = new ActionRunner({ allowPrivate: false, ...stub });
    const result = await runner.run(action, { order_id: '1' }, null);
    runner.destroy();
    expect(stub.connections.map((c) => c.host)).toEqual([PUBLIC_ADDRESS]);
    expect(result.error).toMatch(/^Could not reach the API/);
  });
});
