import http from 'node:http';
import { HEADER_MAX_CHARS } from '../../src/common/constants.js';
import { createChatBot, listen, visitor } from '../support/chat-factories.js';
import { sessionCookieOf } from '../support/account-helpers.js';
import { createUser, TEST_PASSWORD } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Every header and field that reaches a parser before authentication is capped and parsed in
 * linear time. Here: a 16 KB value crafted against each parser gets the same kind of answer as a
 * normal request to the same route (the same status, an `{error, code}` body when refused), never
 * a 5xx or a 431, on a connection of its own. How long each takes is a figure, not an assertion:
 * bench/header-parsing.mjs prints both (16 KB of dots in an Origin blocked the event loop ~240 ms
 * before the host parser was made linear). The caps themselves are unit-tested in
 * src/modules/chat/domain-match.spec.ts and src/common/storable-text.spec.ts.
 */

/** "16 KB": as long as a single header can be under Node's 16 KiB limit for all headers. */
const HOSTILE_CHARS = 16_000;

interface Probe {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}

interface Answer {
  status: number;
  body: string;
}

let t: TestApp;
let base: URL;
let lockedBotId: number;
let openBotId: number;
let ownerCookie: string;
let ownBotId: number;

function send(probe: Probe): Promise<Answer> {
  const body = probe.body === undefined ? undefined : Buffer.from(JSON.stringify(probe.body));
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: base.hostname,
        port: base.port,
        method: probe.method,
        path: probe.path,
        agent: false,
        headers: {
          ...(body ? { 'Content-Type': 'application/json', 'Content-Length': String(body.length) } : {}),
          ...probe.headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * Sends the normal request, then the hostile one: the hostile one is answered with `status` (by
 * default the normal one's), and a refusal is `{error, code}` like any other.
 */
async function expectAnsweredLikeNormal(normal: Probe, hostile: Probe, status?: number): Promise<void> {
  const normalAnswer = await send(normal);
  const hostileAnswer = await send(hostile);
  expect(hostileAnswer.status).toBeLessThan(500);
  expect(hostileAnswer.status).not.toBe(431);
  expect(hostileAnswer.status).toBe(status ?? normalAnswer.status);
  if (hostileAnswer.status >= 400) {
    expect(JSON.parse(hostileAnswer.body)).toEqual({ error: expect.any(String), code: expect.any(String) });
  }
}

/** Crafted against `/\.+$/`: a long run of dots that does not end the string. */
const dots = (prefix: string) => `${prefix}a${'.'.repeat(HOSTILE_CHARS - prefix.length - 2)}x`;

beforeAll(async () => {
  t = await startTestApp({
    OFFLINE_MODEL_WORD_DELAY_MS: '0',
    CHAT_VISITOR_RATE_LIMIT: '10000',
    CHAT_IP_RATE_LIMIT: '10000',
    CHAT_BOT_RATE_LIMIT: '10000',
  });
  base = new URL(await listen(t));
  const owner = await createUser(t);
  lockedBotId = (await createChatBot(t, owner.id, { allowedDomain: 'example.com' })).id;
  openBotId = (await createChatBot(t, owner.id)).id;
  const signedIn = await createUser(t);
  ownBotId = (await createChatBot(t, signedIn.id)).id;
  const login = await t
    .http()
    .post('/api/auth/login')
    .set('Origin', t.origin)
    .send({ email: signedIn.email, password: TEST_PASSWORD });
  expect(login.status).toBe(200);
  ownerCookie = sessionCookieOf(login)!;
});

afterAll(async () => {
  await t?.close();
});

describe('16 KB hostile headers before authentication are answered like normal ones', () => {
  const chat = (headers: Record<string, string>, botId = lockedBotId): Probe => ({
    method: 'POST',
    path: '/api/chat',
    headers,
    body: { botId, prompt: 'When do you open?' },
  });

  it('Origin of dots on chat (the domain check)', async () => {
    await expectAnsweredLikeNormal(chat({ Origin: 'https://other.example' }), chat({ Origin: dots('http://') }));
  });

  it('Origin of dots just under the cap on chat', async () => {
    await expectAnsweredLikeNormal(
      chat({ Origin: 'https://other.example' }),
      chat({ Origin: `http://a${'.'.repeat(HEADER_MAX_CHARS.origin - 10)}x` }),
    );
  });

  it('X-Page-Url of dots on chat (no Origin)', async () => {
    await expectAnsweredLikeNormal(
      chat({ 'X-Page-Url': 'https://other.example/page' }),
      chat({ 'X-Page-Url': dots('https://') }),
    );
  });

  it('X-Page-Url of dots just under the cap on chat', async () => {
    await expectAnsweredLikeNormal(
      chat({ 'X-Page-Url': 'https://other.example/page' }),
      chat({ 'X-Page-Url': `https://a${'.'.repeat(HEADER_MAX_CHARS.pageUrl - 12)}x` }),
    );
  });

  it('Authorization of spaces on chat (the API key check)', async () => {
    await expectAnsweredLikeNormal(
      chat({ Authorization: 'Bearer wrong-key' }),
      chat({ Authorization: `Bearer${' '.repeat(HOSTILE_CHARS)}x y` }),
    );
  });

  it('X-Visitor-Id of 16 KB on chat (the visitor id check), through to an answer', async () => {
    const allowed = { Origin: 'https://example.com' };
    await expectAnsweredLikeNormal(
      chat({ ...allowed, 'X-Visitor-Id': visitor() }),
      chat({ ...allowed, 'X-Visitor-Id': `${'a-'.repeat(HOSTILE_CHARS / 2 - 1)}!` }),
    );
  });

  it('X-Visitor-Token of 16 KB on chat (the visitor token check), through to an answer', async () => {
    const allowed = { Origin: 'https://example.com' };
    await expectAnsweredLikeNormal(
      chat({ ...allowed, 'X-Visitor-Token': 'v1.not-a-real-token' }),
      chat({
        ...allowed,
        'X-Visitor-Token': `v1.${'A'.repeat(HOSTILE_CHARS / 2)}.${'-'.repeat(HOSTILE_CHARS / 2 - 10)}`,
      }),
    );
  });

  it('X-Forwarded-For of many addresses on chat', async () => {
    await expectAnsweredLikeNormal(
      chat({ 'X-Forwarded-For': '203.0.113.7' }, openBotId),
      chat({ 'X-Forwarded-For': `${'203.0.113.7, '.repeat(Math.floor(HOSTILE_CHARS / 14))}x` }, openBotId),
    );
  });

  const login: Probe = { method: 'POST', path: '/api/auth/login', body: { email: 'a@example.com', password: 'x' } };

  it('Origin of dots on a state-changing call (the CSRF origin check)', async () => {
    await expectAnsweredLikeNormal(
      { ...login, headers: { Origin: 'https://evil.example' } },
      { ...login, headers: { Origin: dots('http://') } },
    );
  });

  it('Referer of dots on a state-changing call without Origin', async () => {
    await expectAnsweredLikeNormal(
      { ...login, headers: { Referer: 'https://evil.example/page' } },
      { ...login, headers: { Referer: dots('https://') } },
    );
  });

  it('Cookie of 16 KB (session cookie parsing)', async () => {
    const me: Probe = { method: 'GET', path: '/api/user/me' };
    await expectAnsweredLikeNormal(
      { ...me, headers: { Cookie: 'botsmith.sid=s%3Aabc.def' } },
      { ...me, headers: { Cookie: `botsmith.sid=s%3A${'.'.repeat(HOSTILE_CHARS - 20)}x` } },
    );
    await expectAnsweredLikeNormal(
      { ...me, headers: { Cookie: 'a=b; c=d' } },
      { ...me, headers: { Cookie: `${'a=b;'.repeat(HOSTILE_CHARS / 4 - 1)}` } },
    );
  });
});

describe('16 KB hostile fields are answered like normal ones', () => {
  const anonymous = (path: string, body: unknown): Probe => ({
    method: 'POST',
    path,
    headers: { Origin: t.origin },
    body,
  });

  it.each([
    ['a long local part', `${'a'.repeat(HOSTILE_CHARS)}@`],
    ['dotted labels', `a@${'a.'.repeat(HOSTILE_CHARS / 2)}`],
    ['hyphens', `a@${'a-'.repeat(HOSTILE_CHARS / 2)}.com`],
    ['a quoted local part of backslashes', `"${'\\'.repeat(HOSTILE_CHARS)}`],
  ])('e-mail of %s on signup, login and forgot-password', async (_name, email) => {
    for (const path of ['/api/auth/signup', '/api/auth/login', '/api/auth/forgot-password']) {
      await expectAnsweredLikeNormal(
        anonymous(path, { email: 'not-an-email', password: 'Secret!pass1' }),
        anonymous(path, { email, password: 'Secret!pass1' }),
      );
    }
  });

  it.each([
    ['bubbleColor', `linear-gradient(${' '.repeat(HOSTILE_CHARS)}x`],
    ['bannerColor', `linear-gradient(to right${' '.repeat(HOSTILE_CHARS)},#fff,#000`],
    ['bubbleBorderRadius', `${'1'.repeat(HOSTILE_CHARS)}px`],
    ['allowedDomain', 'a.'.repeat(HOSTILE_CHARS / 2)],
  ])('%s of 16 KB on a bot (style parsing) is refused', async (field, value) => {
    const put = (body: unknown): Probe => ({
      method: 'PUT',
      path: `/api/bots/${ownBotId}`,
      headers: { Origin: t.origin, Cookie: ownerCookie },
      body,
    });
    // Each 16 KB value is over its field's length limit: refused with a sentence, 'nonsense' or not.
    await expectAnsweredLikeNormal(put({ [field]: 'nonsense' }), put({ [field]: value }), 400);
  });
});
