import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { handoffLimitSentence } from '../../src/modules/chat/chat.service.js';
import { LEAD_LIMIT_SENTENCE } from '../../src/modules/chat/lead-capture.service.js';
import { chargeMessage } from '../support/billing-helpers.js';
import { createChatBot, usageOfOwner } from '../support/chat-factories.js';
import { createUser } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Handoff and leads are bounded (docs/product.md#quotas), the attack as the test: a stranger at a
 * bot's spent budget leaves a lead (which hands the conversation to a person, where messages are
 * never charged) and then writes on; and a script leaves lead after lead, each one a mail to the
 * owner. The limits are set low here; their defaults (30 and 100) are checked in config.spec.ts.
 */
const HANDOFF_CAP = 4;
const LEAD_CAP = 3;
/** Messages per minute per client network and bot: above the handoff cap, so the cap is what refuses first. */
const IP_RATE_LIMIT = 7;
const SITE = 'https://shop.example';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({
    OFFLINE_MODEL_WORD_DELAY_MS: '0',
    HANDOFF_MESSAGES_PER_CONVERSATION_PER_DAY: String(HANDOFF_CAP),
    LEADS_PER_BOT_PER_DAY: String(LEAD_CAP),
    CHAT_IP_RATE_LIMIT: String(IP_RATE_LIMIT),
  });
});
afterAll(() => t.close());

let addresses = 0;
function nextAddress(): string {
  addresses += 1;
  return `198.51.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
}

interface Caller {
  ip: string;
  token?: string;
}

function lead(botId: number, email: string, caller: Caller) {
  const req = t
    .http()
    .post('/api/chat/lead')
    .set('Origin', SITE)
    .set('X-Page-Url', `${SITE}/contact`)
    .set('X-Forwarded-For', caller.ip);
  if (caller.token) req.set('X-Visitor-Token', caller.token);
  return req.send({ botId, email });
}

function chat(botId: number, prompt: string, caller: Caller) {
  const req = t.http().post('/api/chat').set('Origin', SITE).set('X-Forwarded-For', caller.ip);
  if (caller.token) req.set('X-Visitor-Token', caller.token);
  return req.send({ botId, prompt });
}

/** A bot whose monthly budget is spent: it answers nobody, but takes leads. */
async function botAtItsBudget() {
  const owner = await createUser(t);
  const bot = await createChatBot(t, owner.id, { allowedDomain: 'shop.example', usageLimitDollars: 1 });
  await chargeMessage(t, owner.id, 100, undefined, { botId: bot.id });
  return { owner, bot };
}

async function visitorMessages(botId: number): Promise<string[]> {
  const rows: Array<{ content: string }> = await t.dataSource.query(
    `SELECT m.content FROM messages m JOIN conversations c ON c.id = m.conversation_id
      WHERE c.bot_id = $1 AND m.role = 'user' ORDER BY m.id`,
    [botId],
  );
  return rows.map((row) => row.content);
}

async function count(sql: string, botId: number): Promise<number> {
  const [row]: Array<{ n: number | string }> = await t.dataSource.query(sql, [botId]);
  return Number(row.n);
}

describe('visitor messages in a handed-off conversation', () => {
  it(`at a spent budget, a stranger's lead then messages: ${HANDOFF_CAP} are stored, the next is 429 and not stored`, async () => {
    const { owner, bot } = await botAtItsBudget();
    const usageBefore = await usageOfOwner(t, owner.id);
    const caller: Caller = { ip: nextAddress() };
    expect((await chat(bot.id, 'Hello?', caller)).status).toBe(402);

    const left = await lead(bot.id, 'stranger@example.org', caller);
    expect(left.status).toBe(201);
    caller.token = left.headers['x-visitor-token'];

    for (let i = 1; i <= HANDOFF_CAP; i += 1) {
      const sent = await chat(bot.id, `message ${i} ${'x'.repeat(1900)}`, caller);
      expect(sent.status).toBe(200);
      expect(sent.body).toEqual({ message: '', messageId: null, citations: [], handoff: true });
    }
    const refused = await chat(bot.id, 'one message too many', caller);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: handoffLimitSentence(HANDOFF_CAP), code: 'HANDOFF_LIMIT_REACHED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(86_400);

    // As a stream, refused the same way before it opens.
    const streamed = await chat(bot.id, 'and another, as a stream', caller).set('Accept', 'text/event-stream');
    expect(streamed.status).toBe(429);
    expect(streamed.body.code).toBe('HANDOFF_LIMIT_REACHED');

    // Stored: the message before the lead and the cap's worth after it; the refused ones not at all.
    const stored = await visitorMessages(bot.id);
    expect(stored).toHaveLength(1 + HANDOFF_CAP);
    expect(stored.some((content) => content.includes('too many') || content.includes('as a stream'))).toBe(false);
    // The only error row is the budget's 402 before the lead: a 429 writes nothing.
    const errorRows = `SELECT count(*) AS n FROM messages m JOIN conversations c ON c.id = m.conversation_id
      WHERE c.bot_id = $1 AND m.role = 'error'`;
    expect(await count(errorRows, bot.id)).toBe(1);
    // Nothing was charged for any of it.
    expect(await usageOfOwner(t, owner.id)).toEqual(usageBefore);
  });

  it("counts each conversation on its own: another visitor's conversation with the bot still takes messages", async () => {
    const { bot } = await botAtItsBudget();
    const first: Caller = { ip: nextAddress() };
    const second: Caller = { ip: nextAddress() };
    first.token = (await lead(bot.id, 'first@example.org', first)).headers['x-visitor-token'];
    second.token = (await lead(bot.id, 'second@example.org', second)).headers['x-visitor-token'];
    for (let i = 0; i < HANDOFF_CAP; i += 1) expect((await chat(bot.id, `first ${i}`, first)).status).toBe(200);
    expect((await chat(bot.id, 'first again', first)).status).toBe(429);
    expect((await chat(bot.id, 'second, hello', second)).status).toBe(200);
    expect(await visitorMessages(bot.id)).toHaveLength(HANDOFF_CAP + 1);
  });

  it("also counts in the bot's chat rate limits: two handed-off visitors on one network share its bucket", async () => {
    const { bot } = await botAtItsBudget();
    const ip = nextAddress();
    const first: Caller = { ip };
    const second: Caller = { ip };
    first.token = (await lead(bot.id, 'one@example.org', first)).headers['x-visitor-token'];
    second.token = (await lead(bot.id, 'two@example.org', second)).headers['x-visitor-token'];
    expect(first.token).not.toBe(second.token);
    // Each conversation stays under its daily cap; together they pass the network's per-minute limit.
    for (let i = 0; i < HANDOFF_CAP; i += 1) expect((await chat(bot.id, `one ${i}`, first)).status).toBe(200);
    const rest = IP_RATE_LIMIT - HANDOFF_CAP;
    expect(rest).toBeLessThan(HANDOFF_CAP);
    for (let i = 0; i < rest; i += 1) expect((await chat(bot.id, `two ${i}`, second)).status).toBe(200);
    const limited = await chat(bot.id, 'two, once more', second);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('RATE_LIMITED');
    expect(limited.headers['retry-after']).toBeDefined();
    expect(await visitorMessages(bot.id)).toHaveLength(IP_RATE_LIMIT);
  });
});

describe('leads per bot per day', () => {
  it(`takes ${LEAD_CAP} leads a day; the next is 429 with a sentence and nothing of it is stored`, async () => {
    const { bot } = await botAtItsBudget();
    for (let i = 1; i <= LEAD_CAP; i += 1) {
      expect((await lead(bot.id, `lead${i}@example.org`, { ip: nextAddress() })).status).toBe(201);
    }
    const conversationsBefore = await count(`SELECT count(*) AS n FROM conversations WHERE bot_id = $1`, bot.id);

    const refused = await lead(bot.id, 'one-too-many@example.org', { ip: nextAddress() });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: LEAD_LIMIT_SENTENCE, code: 'LEAD_LIMIT_REACHED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

    const emails: Array<{ email: string }> = await t.dataSource.query(
      `SELECT email FROM leads WHERE bot_id = $1 ORDER BY id`,
      [bot.id],
    );
    expect(emails.map((row) => row.email)).toEqual(['lead1@example.org', 'lead2@example.org', 'lead3@example.org']);
    // No conversation was started or handed off for the refused lead.
    expect(await count(`SELECT count(*) AS n FROM conversations WHERE bot_id = $1`, bot.id)).toBe(conversationsBefore);
  });

  it('holds when a visitor deletes their conversation (and its lead) to leave another', async () => {
    const { bot } = await botAtItsBudget();
    const caller: Caller = { ip: nextAddress() };
    for (let i = 1; i <= LEAD_CAP; i += 1) {
      const left = await lead(bot.id, `again${i}@example.org`, caller);
      expect(left.status).toBe(201);
      caller.token = left.headers['x-visitor-token'];
      const deleted = await t
        .http()
        .delete('/api/chat/conversations/current')
        .set('Origin', SITE)
        .set('X-Forwarded-For', caller.ip)
        .set('X-Visitor-Token', caller.token)
        .send({ botId: bot.id });
      expect(deleted.status).toBe(204);
    }
    expect(await count(`SELECT count(*) AS n FROM leads WHERE bot_id = $1`, bot.id)).toBe(0);
    const refused = await lead(bot.id, 'again-more@example.org', caller);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('LEAD_LIMIT_REACHED');
    expect(await count(`SELECT count(*) AS n FROM leads WHERE bot_id = $1`, bot.id)).toBe(0);
  });

  it("counts each UTC day from zero: yesterday's full count refuses nothing today, and its row goes", async () => {
    const { bot } = await botAtItsBudget();
    await t.dataSource.query(
      `INSERT INTO daily_quota_usage (quota, subject_id, day, used) VALUES ('leads', $1, (now() AT TIME ZONE 'UTC')::date - 1, $2)`,
      [bot.id, LEAD_CAP],
    );
    expect((await lead(bot.id, 'today@example.org', { ip: nextAddress() })).status).toBe(201);
    const rows: Array<{ used: number; today: boolean }> = await t.dataSource.query(
      `SELECT used, day = (now() AT TIME ZONE 'UTC')::date AS today FROM daily_quota_usage
        WHERE quota = 'leads' AND subject_id = $1`,
      [bot.id],
    );
    expect(rows).toEqual([{ used: 1, today: true }]);
  });

  it("one bot at its cap does not stop another bot's leads", async () => {
    const { bot: full } = await botAtItsBudget();
    const { bot: other } = await botAtItsBudget();
    for (let i = 0; i < LEAD_CAP; i += 1) {
      expect((await lead(full.id, `f${i}@example.org`, { ip: nextAddress() })).status).toBe(201);
    }
    expect((await lead(full.id, 'f-more@example.org', { ip: nextAddress() })).status).toBe(429);
    expect((await lead(other.id, 'o@example.org', { ip: nextAddress() })).status).toBe(201);
  });
});
