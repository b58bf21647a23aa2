import net from 'node:net';
import fc from 'fast-check';
import { DEMO_BOT_ID } from '../../src/common/constants.js';
import { DEFAULT_MAX_PAGES } from '../../src/modules/knowledge/website/website-crawler.js';
import { CategoryEntity } from '../../src/modules/categories/category.entity.js';
import { sessionCookieOf } from '../support/account-helpers.js';
import { GOOD_CARD, submitTestCard } from '../support/billing-helpers.js';
import { createChatBot, listen, messagesOfBot } from '../support/chat-factories.js';
import { createUser, TEST_PASSWORD } from '../support/factories.js';
import {
  answerProblem,
  apiRoutesOf,
  describeRequest,
  FUZZ_ROUTES,
  requestArbitrary,
  sendRequest,
  type FuzzContext,
} from '../support/hostile-input.mjs';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * No input gives a 5xx: every API route (read from the app's router, so a route added later is
 * fuzzed too) gets hundreds of hostile requests (NUL, lone surrogates, 16 KB strings, prototype
 * keys, deep nesting, huge numbers, wrong types and content types, malformed JSON, other owners'
 * ids) from a paid owner's session where the route is guarded. Each answer must be below 500, and
 * an error must be `{error, code}`. FUZZ_RUNS sets the cases per route that reads a body (half as
 * many for routes that read none, to keep the spec near a minute on two cores), FUZZ_SEED
 * replays a run.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 0x7fffffff);

let t: TestApp;
let base: string;
let context: FuzzContext;
let registered: string[];
let ownBotId: number;
let openBotId: number;
let ownerId: number;
let ownerCookie: string;

async function loginCookie(email: string): Promise<string> {
  const response = await t
    .http()
    .post('/api/auth/login')
    .set('Origin', t.origin)
    .send({ email, password: TEST_PASSWORD });
  expect(response.status).toBe(200);
  return sessionCookieOf(response)!;
}

async function createCategory(ownerId: number, name: string): Promise<number> {
  const repo = t.dataSource.getRepository(CategoryEntity);
  return (await repo.save(repo.create({ ownerId, name }))).id;
}

beforeAll(async () => {
  t = await startTestApp({
    OFFLINE_MODEL_WORD_DELAY_MS: '0',
    CHAT_VISITOR_RATE_LIMIT: '100000',
    CHAT_IP_RATE_LIMIT: '100000',
    CHAT_BOT_RATE_LIMIT: '100000',
  });
  base = await listen(t);
  // The owner pays through the real test-mode checkout, so the billing setup calls find the customer.
  const owner = await createUser(t, { billing: 'none' });
  ownerId = owner.id;
  const other = await createUser(t);
  ownerCookie = await loginCookie(owner.email);
  const setup = (path: string) => t.http().post(path).set('Origin', t.origin).set('Cookie', ownerCookie).send({});
  const customer = await setup('/api/auth/create-stripe-customer');
  expect((await submitTestCard(t, customer.body.url as string, GOOD_CARD)).status).toBe(303);
  expect((await setup('/api/auth/create-stripe-subscription')).status).toBe(200);
  ownBotId = (await createChatBot(t, owner.id, { allowedDomain: 'example.com' })).id;
  openBotId = (await createChatBot(t, owner.id)).id;
  const doomedBots = await Promise.all([1, 2, 3, 4].map(() => createChatBot(t, owner.id)));
  context = {
    origin: t.origin,
    ownerCookie,
    ownIds: [ownBotId, openBotId, await createCategory(owner.id, 'Sales'), await createCategory(owner.id, 'Help')],
    doomedIds: [
      ...doomedBots.map((b) => b.id),
      await createCategory(owner.id, 'Old'),
      await createCategory(owner.id, 'Older'),
    ],
    otherIds: [
      (await createChatBot(t, other.id)).id,
      (await createChatBot(t, other.id, { allowedDomain: 'other.example' })).id,
      await createCategory(other.id, 'Theirs'),
      DEMO_BOT_ID,
    ],
  };
  registered = apiRoutesOf(t.app.getHttpAdapter().getInstance());
});

afterAll(async () => {
  await t?.close();
});

function runsFor(route: string): number {
  return FUZZ_ROUTES[route]?.fields?.length ? RUNS : Math.ceil(RUNS / 2);
}

/** Sends generated requests to `route`; fails with the seed and the first bad request. */
async function fuzz(route: string): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  let failure: string | undefined;
  const details = await fc.check(
    fc.asyncProperty(requestArbitrary(route, context), async (request) => {
      let answer;
      try {
        answer = await sendRequest(base, request);
      } catch (error) {
        failure = `the request failed: ${String(error)}\n  request: ${describeRequest(request)}`;
        return false;
      }
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      const problem = answerProblem(answer);
      if (problem) {
        failure = `${problem}\n  request: ${describeRequest(request)}`;
        return false;
      }
      return true;
    }),
    { numRuns: runsFor(route), seed: SEED, endOnFailure: true },
  );
  if (details.failed) {
    const reason = failure ?? String(details.errorInstance);
    throw new Error(`${route} failed (replay with FUZZ_SEED=${SEED}): ${reason}`);
  }
  return statuses;
}

describe('hostile input on every API route', () => {
  it('fuzzes every route the app registers: none is missing from the fuzz table', () => {
    expect(registered.filter((route) => !(route in FUZZ_ROUTES))).toEqual([]);
  });

  it.each(Object.keys(FUZZ_ROUTES))('%s never answers 5xx, and every error is {error, code}', async (route) => {
    // An entry may name a route another change is about to add; until then there is nothing to fuzz.
    if (!registered.includes(route)) return;
    const statuses = await fuzz(route);
    expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(runsFor(route));
  });

  it('fuzzes routes missing from the table with generic bodies too', async () => {
    for (const route of registered.filter((r) => !(r in FUZZ_ROUTES))) await fuzz(route);
  });
});

describe('hostile input found by fuzzing, as regression cases', () => {
  const post = (path: string, body: string, cookie = ownerCookie) =>
    t
      .http()
      .post(path)
      .set('Origin', t.origin)
      .set('Cookie', cookie)
      .set('Content-Type', 'application/json')
      .send(body);

  it('refuses a NUL in a bot name with a sentence, and creates nothing', async () => {
    const before = await t.dataSource.query('SELECT count(*)::int AS n FROM bots');
    const response = await post('/api/bots', '{"botName":"Sup\\u0000port"}');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'The field botName contains a NUL character (\\u0000), which cannot be stored. Remove it and try again.',
      code: 'INVALID_CHARACTERS',
    });
    expect(await t.dataSource.query('SELECT count(*)::int AS n FROM bots')).toEqual(before);
  });

  it('refuses a NUL in a category name and in any bot field', async () => {
    const category = await post('/api/categories', '{"name":"a\\u0000"}');
    expect(category.status).toBe(400);
    expect(category.body.code).toBe('INVALID_CHARACTERS');
    const update = await t
      .http()
      .put(`/api/bots/${openBotId}`)
      .set('Origin', t.origin)
      .set('Cookie', ownerCookie)
      .send({ name: 'Fine', prompt: 'Be kind.\u0000' });
    expect(update.status).toBe(400);
    expect(update.body.error).toMatch(/^The field prompt contains a NUL character/);
    const bot = await t.dataSource.query('SELECT name, prompt FROM bots WHERE id = $1', [openBotId]);
    expect(bot[0].name).not.toBe('Fine');
  });

  it('refuses a lone surrogate instead of storing U+FFFD in its place', async () => {
    const response = await post('/api/bots', '{"botName":"Bot \\ud800"}');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error:
        'The field botName contains broken Unicode (an unpaired surrogate), which cannot be stored. Remove it and try again.',
      code: 'INVALID_CHARACTERS',
    });
  });

  it('answers a login whose e-mail is {"constructor":[]} with 400, not 500', async () => {
    const response = await post('/api/auth/login', '{"email":{"constructor":[]},"password":"x"}', '');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'The request body must not contain a field named constructor.',
      code: 'INVALID_BODY',
    });
  });

  it('refuses a __proto__ field (it used to be dropped silently and the bot created)', async () => {
    const before = await t.dataSource.query('SELECT count(*)::int AS n FROM bots');
    const response = await post('/api/bots', '{"botName":"Proto","__proto__":{"admin":true}}');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'The request body must not contain a field named __proto__.',
      code: 'INVALID_BODY',
    });
    expect(await t.dataSource.query('SELECT count(*)::int AS n FROM bots')).toEqual(before);
  });

  it('refuses bodies nested too deeply, and top-level arrays or scalars', async () => {
    const deep = await post('/api/bots', `{"botName":"x","a":${'['.repeat(50_000)}${']'.repeat(50_000)}}`);
    expect(deep.status).toBe(400);
    expect(deep.body).toEqual({
      error: 'The request body is nested too deeply (at most 32 levels).',
      code: 'INVALID_BODY',
    });
    for (const body of ['[{"botName":"x"}]', '[]']) {
      const response = await post('/api/bots', body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'The request body must be a JSON object.', code: 'INVALID_BODY' });
    }
  });

  it('takes a website whose page count and schedule are null as not chosen (the schedule was a 500)', async () => {
    const botId = (await createChatBot(t, ownerId)).id;
    const response = await post(
      `/api/bots/${botId}/sources/website`,
      '{"url":"http://127.0.0.1:9/","maxPages":null,"refreshSchedule":null}',
    );
    expect(response.status).toBe(201);
    expect(response.body.source).toMatchObject({ kind: 'website', refreshSchedule: 'weekly' });
    const [row] = await t.dataSource.query('SELECT max_pages, refresh_schedule FROM bot_sources WHERE id = $1', [
      response.body.source.id,
    ]);
    expect(row).toEqual({ max_pages: DEFAULT_MAX_PAGES, refresh_schedule: 'weekly' });
  });

  it('answers a visitor whose message holds NUL or a lone surrogate, storing it cleaned', async () => {
    // A bot of its own: the fuzzing above edits the owner's other bots (a domain lock, a budget).
    const botId = (await createChatBot(t, ownerId)).id;
    const response = await t
      .http()
      .post('/api/chat')
      .send({
        botId,
        prompt: 'When\u0000 do you open? \ud800',
        chatHistory: [{ role: 'user', content: 'hi\u0000' }],
      });
    expect(response.status).toBe(200);
    const messages = await messagesOfBot(t, botId);
    expect(messages.filter((m) => m.role === 'user').at(-1)?.content).toBe('When do you open? \ufffd');
  });

  /** Writes `raw` on a fresh connection and resolves with everything the server answered. */
  function rawExchange(raw: string): Promise<string> {
    const { hostname, port } = new URL(base);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(port), hostname, () => socket.end(raw));
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
      socket.on('error', reject);
    });
  }

  it('answers headers over 16 KB and malformed HTTP with {error, code}, not a bare status', async () => {
    const tooLarge = await rawExchange(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(tooLarge).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(tooLarge.slice(tooLarge.indexOf('\r\n\r\n') + 4))).toEqual({
      error: 'The request headers are too large.',
      code: 'HEADERS_TOO_LARGE',
    });
    const garbage = await rawExchange('NOT HTTP AT ALL\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(garbage.slice(garbage.indexOf('\r\n\r\n') + 4))).toEqual({
      error: 'The request is not valid HTTP.',
      code: 'BAD_REQUEST',
    });
  });
});
