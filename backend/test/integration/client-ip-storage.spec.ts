import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { createChatBot } from '../support/chat-factories.js';
import { createUser, signedInAgent, uniqueEmail } from '../support/factories.js';
import { OwnRedis, REDIS_SERVER } from '../support/own-servers.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * No whole client IP address is stored in the database (docs/product.md#retention-and-visitor-privacy):
 * visitors chat and rate answers, and an owner calls the API, from addresses given in X-Forwarded-For
 * (the test client is loopback, which the app trusts as a proxy); then every text-like column of
 * every table is searched for them. Nor does the rate-limit store hold one: with Redis, every key
 * and value is searched after chats, ratings, leads, reads of replies, failed logins and sign-ups,
 * while the per-network limits still count one IPv6 /64 as one client.
 */
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ OFFLINE_MODEL_WORD_DELAY_MS: '0' });
});
afterAll(() => t.close());

const SITE = 'https://shop.example';
const IPV4 = '203.0.113.77';
const IPV6 = '2001:db8:abcd:12:3456:789a:bcde:f077';

/** Every (table, column) of a type that could hold an address written as text. */
async function textColumns(): Promise<Array<{ table: string; column: string }>> {
  return t.dataSource.query(
    `SELECT table_name AS "table", column_name AS "column" FROM information_schema.columns
      WHERE table_schema = current_schema()
        AND data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'inet', 'cidr', 'ARRAY', 'bytea')
      ORDER BY 1, 2`,
  );
}

async function rowsHolding(needle: string): Promise<string[]> {
  const found: string[] = [];
  for (const { table, column } of await textColumns()) {
    const rows: Array<{ n: string }> = await t.dataSource.query(
      `SELECT COUNT(*) AS n FROM "${table}" WHERE position(lower($1) in lower("${column}"::text)) > 0`,
      [needle],
    );
    if (Number(rows[0].n) > 0) found.push(`${table}.${column}`);
  }
  return found;
}

describe('client IP addresses', () => {
  it('are not stored whole in any table after chats, ratings and leads from IPv4, IPv6 and mapped addresses', async () => {
    const owner = await createUser(t, { creditsCents: 10_000 });
    const bot = await createChatBot(t, owner.id, { allowedDomain: 'shop.example' });
    for (const ip of [IPV4, IPV6, `::ffff:${IPV4}`]) {
      const answer = await t
        .http()
        .post('/api/chat')
        .set('Origin', SITE)
        .set('X-Forwarded-For', ip)
        .set('X-Page-Url', `${SITE}/help`)
        .send({ botId: bot.id, prompt: 'When do you open?' });
      expect(answer.status).toBe(200);
      const token = answer.headers['x-visitor-token'];
      const rated = await t
        .http()
        .post('/api/chat/feedback')
        .set('Origin', SITE)
        .set('X-Forwarded-For', ip)
        .set('X-Visitor-Token', token)
        .send({ botId: bot.id, messageId: answer.body.messageId, rating: 'down', comment: 'Not helpful' });
      expect(rated.status).toBe(204);
      const lead = await t
        .http()
        .post('/api/chat/lead')
        .set('Origin', SITE)
        .set('X-Forwarded-For', ip)
        .set('X-Visitor-Token', token)
        .set('X-Page-Url', `${SITE}/help`)
        .send({ botId: bot.id, email: 'visitor@example.org' });
      expect(lead.status).toBe(201);
    }
    const { agent } = await signedInAgent(t);
    expect((await agent.get('/api/user/me').set('X-Forwarded-For', IPV4)).status).toBe(200);

    // The log holds what the visitors wrote (so the search does reach the chat tables).
    expect(await rowsHolding('When do you open?')).toEqual(expect.arrayContaining(['messages.content']));
    expect(await rowsHolding('visitor@example.org')).toEqual(['leads.email']);
    expect(await rowsHolding(IPV4)).toEqual([]);
    expect(await rowsHolding(IPV6)).toEqual([]);
    expect(await rowsHolding('2001:db8:abcd:12:')).toEqual([]);
  });
});

const skipRedis = fs.existsSync(REDIS_SERVER) ? null : `${REDIS_SERVER} is not installed`;
if (skipRedis) console.warn(`[client-ip-storage.spec] Redis part skipped: ${skipRedis}.`);

(skipRedis ? describe.skip : describe)('client IP addresses in the rate-limit store (Redis)', () => {
  const IP_LIMIT = 4;
  let redis: OwnRedis;
  let app: TestApp;
  let client: Redis;

  beforeAll(async () => {
    redis = await OwnRedis.start();
    app = await startTestApp({
      OFFLINE_MODEL_WORD_DELAY_MS: '0',
      REDIS_URL: redis.url,
      CHAT_IP_RATE_LIMIT: String(IP_LIMIT),
    });
    client = new Redis(redis.url);
  });
  afterAll(async () => {
    await client?.quit();
    await app?.close();
    await redis?.destroy();
  });

  const chat = (botId: number, ip: string, headers: Record<string, string> = {}) =>
    app
      .http()
      .post('/api/chat')
      .set('Origin', SITE)
      .set('X-Forwarded-For', ip)
      .set('X-Page-Url', `${SITE}/help`)
      .set(headers)
      .send({ botId, prompt: 'When do you open?' });

  /** Every key in Redis, and every value under it, as text. */
  async function everythingStored(): Promise<string[]> {
    const texts: string[] = [];
    for (const key of await client.keys('*')) {
      texts.push(key);
      const type = await client.type(key);
      if (type === 'string') texts.push(String(await client.get(key)));
      else if (type === 'hash') texts.push(JSON.stringify(await client.hgetall(key)));
      else if (type === 'zset') texts.push(JSON.stringify(await client.zrange(key, 0, -1, 'WITHSCORES')));
      else if (type === 'list') texts.push(JSON.stringify(await client.lrange(key, 0, -1)));
      else if (type === 'set') texts.push(JSON.stringify(await client.smembers(key)));
    }
    return texts;
  }

  it('holds keyed hashes of client networks, never an address or an IPv6 /64, after every kind of per-network hit', async () => {
    const owner = await createUser(app, { creditsCents: 10_000 });
    const bot = await createChatBot(app, owner.id, { allowedDomain: 'shop.example' });
    const user = await createUser(app);
    for (const ip of [IPV4, IPV6, `::ffff:${IPV4}`]) {
      const answer = await chat(bot.id, ip);
      expect(answer.status).toBe(200);
      const token = answer.headers['x-visitor-token'];
      const visitor = { Origin: SITE, 'X-Forwarded-For': ip, 'X-Visitor-Token': token };
      const rated = await app
        .http()
        .post('/api/chat/feedback')
        .set(visitor)
        .send({ botId: bot.id, messageId: answer.body.messageId, rating: 'up' });
      expect(rated.status).toBe(204);
      const lead = await app
        .http()
        .post('/api/chat/lead')
        .set(visitor)
        .set('X-Page-Url', `${SITE}/help`)
        .send({ botId: bot.id, email: 'visitor@example.org' });
      expect(lead.status).toBe(201);
      const replies = await app.http().get(`/api/chat/conversations/current/messages?botId=${bot.id}`).set(visitor);
      expect(replies.status).toBe(200);
      const login = await app
        .http()
        .post('/api/auth/login')
        .set('Origin', app.origin)
        .set('X-Forwarded-For', ip)
        .send({ email: user.email, password: 'Not-the-password1' });
      expect(login.status).toBe(401);
      const signup = await app
        .http()
        .post('/api/auth/signup')
        .set('Origin', app.origin)
        .set('X-Forwarded-For', ip)
        .send({ email: uniqueEmail('ip'), password: 'Signup!pass1' });
      expect(signup.status).toBe(201);
    }

    const stored = await everythingStored();
    expect(stored.length).toBeGreaterThan(0);
    // The chat limits' keys name the network by its hash.
    expect(stored.filter((text) => /chat-ip:\d+:n:[A-Za-z0-9_-]{22}\b/.test(text)).length).toBeGreaterThan(0);
    for (const needle of [IPV4, IPV6, '2001:db8:abcd:12:', '2001:db8:abcd:12::', '::/64', '203.0.113']) {
      expect({ needle, holding: stored.filter((text) => text.toLowerCase().includes(needle)) }).toEqual({
        needle,
        holding: [],
      });
    }
  });

  it('still counts every address of one IPv6 /64 as one client, and another /64 apart', async () => {
    const owner = await createUser(app, { creditsCents: 10_000 });
    const bot = await createChatBot(app, owner.id, { allowedDomain: 'shop.example' });
    // No visitor token: every message is a new visitor, so only the per-network limit can stop them.
    const statuses: number[] = [];
    for (let i = 0; i < IP_LIMIT; i++) statuses.push((await chat(bot.id, `2001:db8:77:1::${i + 1}`)).status);
    expect(statuses).toEqual(new Array(IP_LIMIT).fill(200));
    const refused = await chat(bot.id, '2001:db8:77:1:ffff:eeee:dddd:cccc');
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RATE_LIMITED');
    expect((await chat(bot.id, '2001:db8:77:2::1')).status).toBe(200);
    // An IPv4 client is its own address, as before.
    for (let i = 0; i < IP_LIMIT; i++) expect((await chat(bot.id, '198.51.100.60')).status).toBe(200);
    expect((await chat(bot.id, '198.51.100.60')).status).toBe(429);
    expect((await chat(bot.id, '198.51.100.61')).status).toBe(200);
  });
});
