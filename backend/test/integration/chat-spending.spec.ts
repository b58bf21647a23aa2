import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { chargeMessage } from '../support/billing-helpers.js';
import { createBotViaApi } from '../support/bot-factories.js';
import { createChatBot, usageOfOwner } from '../support/chat-factories.js';
import { signedInAgent, createUser } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * What a script can spend of an owner's money through the public chat API. Outside a browser,
 * Origin and X-Page-Url are whatever the script sends and visitor ids are whatever it invents, so
 * the bounds are the ones the server keeps by itself: the per-IP limit (one IPv4 address, one
 * IPv6 /64) and the bot's monthly budget, which a new bot has from the start.
 *
 * The app trusts X-Forwarded-For from loopback (its reverse proxy), so each request here says
 * which client address it comes from.
 */
let t: TestApp;
const LIMITS = { visitor: 3, ip: 6, bot: 1000 };

beforeAll(async () => {
  t = await startTestApp({
    CHAT_VISITOR_RATE_LIMIT: String(LIMITS.visitor),
    CHAT_IP_RATE_LIMIT: String(LIMITS.ip),
    CHAT_BOT_RATE_LIMIT: String(LIMITS.bot),
    OFFLINE_MODEL_WORD_DELAY_MS: '0',
  });
});
afterAll(() => t.close());

let scriptCounter = 0;
/** A made-up visitor id, new on every call, as a script would send. */
function inventedVisitorId(): string {
  scriptCounter += 1;
  return `script-visitor-${scriptCounter}-${Math.random().toString(36).slice(2)}`;
}

function scriptChat(botId: number, ip: string, headers: Record<string, string> = {}) {
  const request = t
    .http()
    .post('/api/chat')
    .set('X-Forwarded-For', ip)
    .set('Origin', 'https://shop.example.com')
    .set('X-Page-Url', 'https://shop.example.com/')
    .set('X-Visitor-Id', inventedVisitorId());
  for (const [name, value] of Object.entries(headers)) request.set(name, value);
  // A greeting, which the offline model answers (and charges): a question it cannot answer is free
  // (docs/product.md#the-fair-meter).
  return request.send({ botId, prompt: 'Hello! When does the shop open?' });
}

async function statusesOf(requests: Array<() => Promise<{ status: number }>>): Promise<number[]> {
  const statuses: number[] = [];
  for (const send of requests) statuses.push((await send()).status);
  return statuses;
}

describe('a script inventing visitor ids is held to the per-IP limit', () => {
  it('from one IPv4 address: CHAT_IP_RATE_LIMIT answers a minute, then 429, nothing more charged', async () => {
    const owner = await createUser(t);
    const bot = await createChatBot(t, owner.id, { allowedDomain: 'example.com' });
    const statuses = await statusesOf(
      Array.from({ length: LIMITS.ip + 4 }, () => () => scriptChat(bot.id, '203.0.113.7')),
    );
    expect(statuses.slice(0, LIMITS.ip)).toEqual(Array(LIMITS.ip).fill(200));
    expect(statuses.slice(LIMITS.ip)).toEqual([429, 429, 429, 429]);
    expect(await usageOfOwner(t, owner.id)).toMatchObject({ rows: LIMITS.ip });
    // Another client address is its own bucket.
    expect((await scriptChat(bot.id, '203.0.113.8')).status).toBe(200);
  });

  it('from many addresses of one IPv6 /64: one bucket for the whole /64', async () => {
    const owner = await createUser(t);
    const bot = await createChatBot(t, owner.id);
    const addresses = Array.from(
      { length: LIMITS.ip + 4 },
      (_, i) => `2001:db8:aa:bb:${(i + 1).toString(16)}::${i + 7}`,
    );
    const statuses = await statusesOf(addresses.map((ip) => () => scriptChat(bot.id, ip)));
    expect(statuses.slice(0, LIMITS.ip)).toEqual(Array(LIMITS.ip).fill(200));
    expect(statuses.slice(LIMITS.ip)).toEqual([429, 429, 429, 429]);
    expect(await usageOfOwner(t, owner.id)).toMatchObject({ rows: LIMITS.ip });
    // The neighbouring /64 is another client.
    expect((await scriptChat(bot.id, '2001:db8:aa:bc::1')).status).toBe(200);
    // The same client over an IPv4-mapped address counts as that IPv4 address.
    const mapped = await createChatBot(t, owner.id);
    const viaMapped = await statusesOf(
      Array.from(
        { length: LIMITS.ip + 1 },
        (_, i) => () => scriptChat(mapped.id, i % 2 ? '198.51.100.9' : '::ffff:198.51.100.9'),
      ),
    );
    expect(viaMapped.filter((s) => s === 200)).toHaveLength(LIMITS.ip);
    expect(viaMapped.at(-1)).toBe(429);
  });
});

describe('a new bot has a monthly budget', () => {
  it('POST /api/bots gives $10 a month, and a script stops at it with nothing charged past it', async () => {
    const { agent, user } = await signedInAgent(t, { creditsCents: 5000 });
    const botId = await createBotViaApi(t, agent, 'Fresh bot');
    const details = await agent.get(`/api/bots/${botId}`);
    expect(details.body.bot.usageLimitDollars).toBe(10);

    // $9.70 already spent this period: 30 cents left, ten 3-cent answers.
    await chargeMessage(t, user.id, 970, undefined, { botId });
    // Every request from its own address: only the budget can stop this script.
    const statuses = await statusesOf(
      Array.from({ length: 14 }, (_, i) => () => scriptChat(botId, `192.0.2.${i + 1}`)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.slice(10)).toEqual([402, 402, 402, 402]);
    expect(await usageOfOwner(t, user.id)).toMatchObject({ rows: 11, priceCents: 1000 });
    // A new bot takes leads: at its budget it offers the lead form instead of hiding.
    expect((await t.http().get(`/api/widget/bots/${botId}`)).body.bot).toMatchObject({ hidden: true, leadOnly: true });
  });

  it('0 chosen by the owner still means no limit', async () => {
    const { agent, user } = await signedInAgent(t);
    const botId = await createBotViaApi(t, agent, 'Unlimited bot');
    const saved = await agent.put(`/api/bots/${botId}`).set('Origin', t.origin).send({ usageLimitDollars: 0 });
    expect(saved.body.bot.usageLimitDollars).toBe(0);
    await chargeMessage(t, user.id, 5000, undefined, { botId });
    expect((await scriptChat(botId, '192.0.2.200')).status).toBe(200);
  });
});

describe('visitor identity is issued by the server', () => {
  async function visitorIdsOf(botId: number): Promise<string[]> {
    const rows: Array<{ visitor_id: string }> = await t.dataSource.query(
      `SELECT visitor_id FROM conversations WHERE bot_id = $1 ORDER BY id`,
      [botId],
    );
    return rows.map((r) => r.visitor_id);
  }

  function tokenOf(response: { status: number; headers: Record<string, string | undefined> }): string {
    expect(response.status).toBe(200);
    const token = response.headers['x-visitor-token'];
    expect(token).toMatch(/^v1\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{22}$/);
    return token!;
  }

  it('honours its own token for the same bot and network, and never a client-chosen visitor id', async () => {
    const owner = await createUser(t);
    const bot = await createChatBot(t, owner.id);
    const first = tokenOf(await scriptChat(bot.id, '198.51.100.20', { 'X-Visitor-Id': 'chosen-by-the-client' }));
    const again = await scriptChat(bot.id, '198.51.100.20', {
      'X-Visitor-Token': first,
      'X-Visitor-Id': 'chosen-by-the-client',
    });
    expect(tokenOf(again)).toBe(first);
    // One IPv6 client keeps its identity across the addresses of its /64.
    const v6 = tokenOf(await scriptChat(bot.id, '2001:db8:5:6::10'));
    expect(tokenOf(await scriptChat(bot.id, '2001:db8:5:6:ffff::1', { 'X-Visitor-Token': v6 }))).toBe(v6);
    // Two visitors, neither named by the client.
    expect(await visitorIdsOf(bot.id)).toEqual([first.split('.')[1], v6.split('.')[1]]);
    expect(await visitorIdsOf(bot.id)).not.toContain('chosen-by-the-client');
  });

  it('treats a forged token, another bot’s token or another network’s token as a new visitor', async () => {
    const owner = await createUser(t);
    const bot = await createChatBot(t, owner.id);
    const otherBot = await createChatBot(t, owner.id);
    const token = tokenOf(await scriptChat(bot.id, '198.51.100.30'));
    const [, id, mac] = token.split('.');
    const flipped = `${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
    const attempts: Array<[number, string, string]> = [
      [bot.id, '198.51.100.30', `v1.${id}.${flipped}`], // forged signature
      [bot.id, '198.51.100.30', `v1.${'A'.repeat(22)}.${mac}`], // someone else's id with this signature
      [bot.id, '198.51.100.30', `v2.${id}.${mac}`],
      [bot.id, '198.51.100.30', `${token}x`],
      [bot.id, '198.51.100.30', 'not-a-token'],
      [otherBot.id, '198.51.100.30', token], // issued for another bot
      [bot.id, '198.51.100.31', token], // another IPv4 client
      [bot.id, '2001:db8:9:9::1', token], // another network
    ];
    for (const [botId, ip, sent] of attempts) {
      const response = await scriptChat(botId, ip, { 'X-Visitor-Token': sent });
      const fresh = tokenOf(response);
      expect(fresh).not.toBe(token);
      expect(fresh.split('.')[1]).not.toBe(id);
    }
    // Every attempt on `bot` became a conversation of its own: nobody got the visitor `id` back.
    const ids = await visitorIdsOf(bot.id);
    expect(ids.filter((v) => v === id)).toHaveLength(1);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("with the bot's API key, the owner's server names its own visitors and gets no token", async () => {
    const owner = await createUser(t);
    const bot = await createChatBot(t, owner.id, { allowedDomain: 'example.com' });
    const viaKey = (visitorId?: string, ip = '192.0.2.250') => {
      const request = t
        .http()
        .post('/api/chat')
        .set('X-Forwarded-For', ip)
        .set('Authorization', `Bearer ${bot.apiKey}`);
      if (visitorId) request.set('X-Visitor-Id', visitorId);
      return request.send({ botId: bot.id, prompt: 'Hello' });
    };
    const named = await viaKey('crm-customer-42');
    expect(named.status).toBe(200);
    expect(named.headers['x-visitor-token']).toBeUndefined();
    expect((await viaKey('crm-customer-42')).status).toBe(200);
    expect((await viaKey()).status).toBe(200);
    const ids = await visitorIdsOf(bot.id);
    expect(ids).toHaveLength(2);
    expect(ids[0]).toBe('api-crm-customer-42');
    expect(ids[1]).toMatch(/^api-[A-Za-z0-9_-]{22}$/);
    // Per visitor: the owner's named visitor is held to the per-visitor limit like any other.
    const statuses = await statusesOf(
      Array.from({ length: LIMITS.visitor + 1 }, () => () => viaKey('crm-customer-43', '192.0.2.251')),
    );
    expect(statuses).toEqual([...Array<number>(LIMITS.visitor).fill(200), 429]);
  });
});
