import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type request from 'supertest';
import { ConversationOutcomesService } from '../../src/modules/conversations/conversation-outcomes.service.js';
import { createBotViaApi } from '../support/bot-factories.js';
import { createChatBot } from '../support/chat-factories.js';
import { signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * GET /api/analytics (docs/product.md#analytics) on a seeded set of conversations of every
 * outcome, with figures computed by hand below. Rows are written directly (the read model is what
 * is tested; conversation-outcomes.spec covers how outcomes are decided), at times chosen around
 * midnight in New York (UTC−5 in November).
 */
let t: TestApp;
let owner: request.Agent;
let other: request.Agent;
let shop: number;
let blog: number;
let othersBot: number;
let conversationIds: Record<string, number>;

interface Seeded {
  key: string;
  bot: () => number;
  at: string;
  outcome: string | null;
  /** true: decided before its last message (resumed since), so not decided. */
  stale?: boolean;
  messages: number;
  up?: number;
  down?: number;
  visitor: string;
}

const CONVERSATIONS: Seeded[] = [
  // 2026-11-09 23:30 in New York: outside a period starting on the 10th there, inside one in UTC.
  { key: 'c1', bot: () => shop, at: '2026-11-10T04:30:00Z', outcome: 'resolved', messages: 4, up: 1, visitor: 'v1' },
  // 2026-11-10 00:30 in New York, the same visitor.
  { key: 'c2', bot: () => shop, at: '2026-11-10T05:30:00Z', outcome: 'resolved', messages: 2, visitor: 'v1' },
  { key: 'c3', bot: () => shop, at: '2026-11-10T15:00:00Z', outcome: 'unanswered', messages: 4, visitor: 'v3' },
  { key: 'c4', bot: () => shop, at: '2026-11-11T15:00:00Z', outcome: 'handed_off', messages: 6, visitor: 'v4' },
  {
    key: 'c5',
    bot: () => blog,
    at: '2026-11-12T15:00:00Z',
    outcome: 'rated_down',
    messages: 2,
    down: 1,
    visitor: 'v5',
  },
  { key: 'c6', bot: () => blog, at: '2026-11-12T16:00:00Z', outcome: 'abandoned', messages: 2, visitor: 'v6' },
  { key: 'c7', bot: () => shop, at: '2026-11-13T15:00:00Z', outcome: null, messages: 2, visitor: 'v7' },
  {
    key: 'c8',
    bot: () => shop,
    at: '2026-11-13T16:00:00Z',
    outcome: 'resolved',
    stale: true,
    messages: 2,
    visitor: 'v8',
  },
  { key: 'x1', bot: () => othersBot, at: '2026-11-10T15:00:00Z', outcome: 'resolved', messages: 2, visitor: 'vx' },
];

/** Answers' charges: [bot, when, cents]. */
const CHARGES: Array<[() => number, string, number]> = [
  [() => shop, '2026-11-10T15:00:00Z', 3],
  [() => shop, '2026-11-10T15:01:00Z', 3],
  [() => shop, '2026-11-10T15:02:00Z', 3],
  [() => shop, '2026-11-11T15:00:00Z', 3],
  [() => blog, '2026-11-12T15:00:00Z', 5],
  [() => blog, '2026-11-12T16:00:00Z', 5],
  // 23:00 on the 13th in New York: inside; 00:30 on the 14th there: outside.
  [() => shop, '2026-11-14T04:00:00Z', 3],
  [() => shop, '2026-11-14T05:30:00Z', 3],
  [() => othersBot, '2026-11-10T15:00:00Z', 3],
];

async function seed(ownerOf: (bot: number) => number): Promise<void> {
  conversationIds = {};
  for (const c of CONVERSATIONS) {
    const bot = c.bot();
    const [row]: Array<{ id: number }> = await t.dataSource.query(
      `INSERT INTO conversations (owner_id, bot_id, bot_name, visitor_id, created_at, last_message_at, message_count,
                                  up_count, down_count, outcome, outcome_at)
       VALUES ($1, $2, 'Bot', $3, $4, $4::timestamptz + interval '5 minutes', $5, $6, $7, $8::varchar,
               CASE WHEN $8::varchar IS NULL THEN NULL
                    ELSE $4::timestamptz + interval '5 minutes' + CASE WHEN $9 THEN interval '-1 minute' ELSE interval '40 minutes' END
               END)
       RETURNING id`,
      [ownerOf(bot), bot, c.visitor, c.at, c.messages, c.up ?? 0, c.down ?? 0, c.outcome, c.stale === true],
    );
    conversationIds[c.key] = Number(row.id);
  }
  let n = 0;
  for (const [bot, at, cents] of CHARGES) {
    n += 1;
    await t.dataSource.query(
      `INSERT INTO usage_events (owner_id, bot_id, model_tier, upstream_model, price_cents, credits_cents,
                                 billable_cents, period_start, report_identifier, created_at)
       VALUES ($1, $2, 'gpt-3.5-turbo', 'offline-demo', $3, $3, 0, '2026-11-03', $4, $5)`,
      [ownerOf(bot()), bot(), cents, `analytics-spec-${n}`, at],
    );
  }
  await t.dataSource.query(
    `INSERT INTO leads (owner_id, bot_id, bot_name, conversation_id, email, created_at)
     VALUES ($1, $2, 'Bot', $3, 'ann@example.org', '2026-11-11T15:10:00Z')`,
    [ownerOf(shop), shop, conversationIds.c4],
  );
}

beforeAll(async () => {
  t = await startTestApp();
  const me = await signedInAgent(t);
  const them = await signedInAgent(t);
  owner = me.agent;
  other = them.agent;
  shop = (await createChatBot(t, me.user.id, { name: 'Shop' })).id;
  blog = (await createChatBot(t, me.user.id, { name: 'Blog' })).id;
  othersBot = (await createChatBot(t, them.user.id, { name: 'Theirs' })).id;
  await seed((bot) => (bot === othersBot ? them.user.id : me.user.id));
});
afterAll(() => t.close());

const NEW_YORK = { from: '2026-11-10', to: '2026-11-13', timeZone: 'America/New_York' };
const ask = (agent: request.Agent, query: object) => agent.get('/api/analytics').query(query);

const outcomes = (resolved: number, handedOff: number, unanswered: number, abandoned: number, ratedDown: number) => ({
  resolved,
  handed_off: handedOff,
  unanswered,
  abandoned,
  rated_down: ratedDown,
});

describe('GET /api/analytics', () => {
  it("gives all of the owner's bots' figures in their time zone, computed by hand", async () => {
    const response = await ask(owner, NEW_YORK);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ botId: null, ...NEW_YORK, groupBy: 'day' });
    // c2..c8 (c1 was the 9th in New York); decided: c2 resolved, c3 unanswered, c4 handed_off,
    // c5 rated_down, c6 abandoned; c7 not yet, c8 resumed since. Spend: 9 + 3 + 10 + 3 cents.
    expect(response.body.totals).toEqual({
      conversations: 7,
      messages: 2 + 4 + 6 + 2 + 2 + 2 + 2,
      visitors: 7,
      outcomes: {
        resolved: { count: 1, rate: 0.2 },
        handed_off: { count: 1, rate: 0.2 },
        unanswered: { count: 1, rate: 0.2 },
        abandoned: { count: 1, rate: 0.2 },
        rated_down: { count: 1, rate: 0.2 },
      },
      undecided: 2,
      thumbsUp: 0,
      thumbsDown: 1,
      leads: 1,
      spendCents: 25,
      costPerConversationCents: 3.57,
      costPerResolvedCents: 25,
    });
    expect(response.body.series).toEqual([
      { start: '2026-11-10', conversations: 2, outcomes: outcomes(1, 0, 1, 0, 0), spendCents: 9 },
      { start: '2026-11-11', conversations: 1, outcomes: outcomes(0, 1, 0, 0, 0), spendCents: 3 },
      { start: '2026-11-12', conversations: 2, outcomes: outcomes(0, 0, 0, 1, 1), spendCents: 10 },
      { start: '2026-11-13', conversations: 2, outcomes: outcomes(0, 0, 0, 0, 0), spendCents: 3 },
    ]);
    // Weekday rows from Monday: the 10th was a Tuesday.
    const hours = response.body.hours as number[][];
    expect(hours).toHaveLength(7);
    expect(hours.every((row) => row.length === 24)).toBe(true);
    const cells = hours.flatMap((row, day) => row.flatMap((n, hour) => (n > 0 ? [[day, hour, n]] : [])));
    expect(cells).toEqual([
      [1, 0, 1],
      [1, 10, 1],
      [2, 10, 1],
      [3, 10, 1],
      [3, 11, 1],
      [4, 10, 1],
      [4, 11, 1],
    ]);
  });

  it('counts days in UTC when asked (or by default), so the same instants fall on other days', async () => {
    const response = await ask(owner, { from: '2026-11-10', to: '2026-11-13' });
    expect(response.status).toBe(200);
    expect(response.body.timeZone).toBe('UTC');
    // c1 is the 10th in UTC; the charge at 04:00 on the 14th is not.
    expect(response.body.totals).toMatchObject({ conversations: 8, thumbsUp: 1, visitors: 7, spendCents: 22 });
    expect(response.body.totals.outcomes.resolved).toEqual({ count: 2, rate: 0.3333 });
  });

  it('groups by ISO week (from its Monday) and narrows to one bot', async () => {
    const weekly = await ask(owner, { ...NEW_YORK, groupBy: 'week' });
    expect(weekly.body.series).toEqual([
      { start: '2026-11-09', conversations: 7, outcomes: outcomes(1, 1, 1, 1, 1), spendCents: 25 },
    ]);
    const blogOnly = await ask(owner, { ...NEW_YORK, botId: blog });
    expect(blogOnly.status).toBe(200);
    expect(blogOnly.body.botId).toBe(blog);
    expect(blogOnly.body.totals).toMatchObject({
      conversations: 2,
      spendCents: 10,
      leads: 0,
      costPerConversationCents: 5,
      costPerResolvedCents: null,
    });
  });

  it("answers 404 for another owner's bot or a missing one, 400 for hostile values, 401 signed out", async () => {
    for (const botId of [othersBot, 999_999, 2_147_483_648, 9_999_999_999]) {
      const response = await ask(owner, { ...NEW_YORK, botId });
      expect(response.status).toBe(404);
      expect(response.body.code).toBe('BOT_NOT_FOUND');
    }
    // The other owner sees only their own conversation.
    const theirs = await ask(other, NEW_YORK);
    expect(theirs.body.totals).toMatchObject({ conversations: 1, spendCents: 3 });

    for (const query of [
      { from: '2026-02-30', to: '2026-03-01' },
      { from: '2026-03-02', to: '2026-03-01' },
      { from: '2025-01-01', to: '2026-01-05' },
      { timeZone: 'Mars/Olympus' },
    ]) {
      const response = await ask(owner, query);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('INVALID_RANGE');
    }
    for (const query of [
      { botId: '1 OR 1=1' },
      { from: "2026-01-01'; DROP TABLE conversations; --" },
      { groupBy: 'month' },
      { timeZone: "UTC'; SELECT pg_sleep(5); --" },
    ]) {
      const response = await ask(owner, query);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
    }
    expect((await t.http().get('/api/analytics')).status).toBe(401);
  });

  it('stays right after the owner deletes a conversation (the spend stays: the ledger is kept)', async () => {
    const deleted = await owner.delete(`/api/conversations/${conversationIds.c3}`).set('Origin', t.origin);
    expect(deleted.status).toBe(204);
    const response = await ask(owner, NEW_YORK);
    expect(response.body.totals).toMatchObject({
      conversations: 6,
      messages: 16,
      visitors: 6,
      undecided: 2,
      spendCents: 25,
      costPerConversationCents: 4.17,
    });
    expect(response.body.totals.outcomes.unanswered).toEqual({ count: 0, rate: 0 });
    expect(response.body.totals.outcomes.resolved).toEqual({ count: 1, rate: 0.25 });
  });
});

describe('GET /api/analytics: topics and sources', () => {
  it("groups the period's first questions into topics with their resolution rate, and lists sources cited and never", async () => {
    const { agent } = await signedInAgent(t, { creditsCents: 10_000 });
    const botId = await createBotViaApi(t, agent, 'Hotel');
    const sourceIds: Record<string, number> = {};
    for (const [name, text] of [
      ['Parking', 'Guests park for free behind the bakery.'],
      ['Breakfast', 'Breakfast is served from 7 to 10 in the garden room.'],
      ['Spa', 'The spa opens at noon and closes at nine.'],
    ]) {
      const source = await agent.post(`/api/bots/${botId}/sources/text`).set('Origin', t.origin).send({ name, text });
      expect(source.status).toBe(201);
      sourceIds[name] = source.body.source.id as number;
    }
    let visitors = 0;
    const askAsNewVisitor = async (prompt: string) => {
      visitors += 1;
      const response = await t
        .http()
        .post('/api/chat')
        .set('Origin', 'https://hotel.example')
        .set('X-Forwarded-For', `203.0.113.${visitors}`)
        .send({ botId, prompt });
      expect(response.status).toBe(200);
    };
    for (const prompt of [
      // One topic: the same words (stop words aside); shown by its most asked wording, latest spelling.
      'where do guests park',
      'Where can guests park?',
      'Where do guests park?',
      'When is breakfast served?',
      'When is breakfast served?',
      'Is there a swimming pool?',
    ]) {
      await askAsNewVisitor(prompt);
    }
    // Before any conversation has been quiet for 30 minutes, no topic has a rate.
    const early = await ask(agent, { botId });
    expect(early.body.topics.map((topic: { resolutionRate: number | null }) => topic.resolutionRate)).toEqual([
      null,
      null,
      null,
    ]);
    await t.app.get(ConversationOutcomesService).run(new Date(Date.now() + 31 * 60 * 1000));

    const response = await ask(agent, { botId });
    expect(response.status).toBe(200);
    expect(response.body.topicConversations).toBe(6);
    expect(response.body.topics).toEqual([
      { text: 'Where do guests park?', conversations: 3, resolutionRate: 1 },
      { text: 'When is breakfast served?', conversations: 2, resolutionRate: 1 },
      { text: 'Is there a swimming pool?', conversations: 1, resolutionRate: 0 },
    ]);
    expect(response.body.sources).toEqual({
      cited: [
        { sourceId: sourceIds.Parking, name: 'Parking', botId, citations: 3 },
        { sourceId: sourceIds.Breakfast, name: 'Breakfast', botId, citations: 2 },
      ],
      neverCited: [{ sourceId: sourceIds.Spa, name: 'Spa', botId }],
    });
    expect(response.body.totals.outcomes).toMatchObject({
      resolved: { count: 5, rate: 0.8333 },
      unanswered: { count: 1, rate: 0.1667 },
    });
  });
});

describe('GET /api/analytics: one owner cannot take the database from the others', () => {
  it('answers a flood from one owner with 200s and 429s (never a 5xx) while another owner is still served', async () => {
    const flooder = await signedInAgent(t);
    const other = await signedInAgent(t);
    const flood = await Promise.all(
      Array.from({ length: 12 }, () => flooder.agent.get('/api/analytics').query({ groupBy: 'day' })),
    );
    const statuses = flood.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    for (const refused of flood.filter((r) => r.status === 429)) {
      expect(refused.body).toEqual({
        error: 'Your figures are still being worked out. Please try again in a moment.',
        code: 'RATE_LIMITED',
      });
      expect(refused.headers['retry-after']).toBe('1');
    }
    expect((await other.agent.get('/api/analytics')).status).toBe(200);
    // Its places are given back: the flooder is served again once its requests ended.
    expect((await flooder.agent.get('/api/analytics')).status).toBe(200);
  });
});
