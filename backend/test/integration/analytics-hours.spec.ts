import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type request from 'supertest';
import { ConversationOutcomesService } from '../../src/modules/conversations/conversation-outcomes.service.js';
import { AnalyticsRepository } from '../../src/modules/analytics/analytics.repository.js';
import { ConversationRetentionService } from '../../src/modules/conversations/conversation-retention.service.js';
import { createChatBot } from '../support/chat-factories.js';
import { signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The analytics' rollup of quarter hours (analytics_quarters,
 * docs/decisions/0019-analytics-at-a-million-messages.md) stays exactly the sum of the rows it
 * stands for, through the app's own paths: chats and their charges, ratings, outcomes decided and
 * re-decided, and conversations deleted by the owner, the visitor and retention, and a deleted bot.
 * After each step the whole table is compared with the rows counted afresh, and GET /api/analytics
 * gives the same totals in UTC, Asia/Kolkata (+05:30) and Asia/Kathmandu (+05:45), all read from
 * the rollup, and the same answer in Kolkata as the rows themselves give. Then conversations and
 * charges either side of Kolkata's and Kathmandu's midnight count on their own local day.
 */
let t: TestApp;
let owner: request.Agent;
let shop: number;
let blog: number;

beforeAll(async () => {
  t = await startTestApp({ OFFLINE_MODEL_WORD_DELAY_MS: '0' });
  const me = await signedInAgent(t);
  owner = me.agent;
  shop = (await createChatBot(t, me.user.id, { name: 'Shop' })).id;
  blog = (await createChatBot(t, me.user.id, { name: 'Blog' })).id;
});
afterAll(() => t.close());

const DAY_MS = 24 * 60 * 60 * 1000;
const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);

interface Chat {
  messageId: number;
  conversationId: number;
  token: string;
}

async function chat(botId: number, token?: string): Promise<Chat> {
  const call = t.http().post('/api/chat');
  if (token) call.set('X-Visitor-Token', token);
  const response = await call.send({ botId, prompt: 'When do you open?' });
  expect(response.status).toBe(200);
  const [row]: Array<{ id: number }> = await t.dataSource.query(
    `SELECT conversation_id AS id FROM messages WHERE id = $1`,
    [response.body.messageId],
  );
  return {
    messageId: Number(response.body.messageId),
    conversationId: Number(row.id),
    token: response.headers['x-visitor-token'],
  };
}

/**
 * The rollup as it should be: every conversation and ledger row counted afresh in its UTC quarter
 * hour (quarters with nothing counted have no row).
 */
const QUARTER = (column: string) =>
  `date_trunc('hour', ${column}, 'UTC') + floor(extract(minute from ${column} AT TIME ZONE 'UTC') / 15) * interval '15 minutes'`;
const RECOUNTED = `
  SELECT r.owner_id, b.id AS bot_id, r.quarter, SUM(r.n)::bigint AS conversations,
         SUM(CASE WHEN r.outcome = 'resolved' THEN r.n ELSE 0 END)::bigint AS resolved,
         SUM(CASE WHEN r.outcome = 'handed_off' THEN r.n ELSE 0 END)::bigint AS handed_off,
         SUM(CASE WHEN r.outcome = 'unanswered' THEN r.n ELSE 0 END)::bigint AS unanswered,
         SUM(CASE WHEN r.outcome = 'abandoned' THEN r.n ELSE 0 END)::bigint AS abandoned,
         SUM(CASE WHEN r.outcome = 'rated_down' THEN r.n ELSE 0 END)::bigint AS rated_down,
         SUM(r.messages)::bigint AS messages, SUM(r.up)::bigint AS up_count, SUM(r.down)::bigint AS down_count,
         SUM(r.spend)::bigint AS spend_cents
    FROM (
      SELECT owner_id, bot_id, ${QUARTER('created_at')} AS quarter, 1 AS n,
             CASE WHEN outcome_at >= last_message_at THEN outcome END AS outcome,
             message_count AS messages, up_count AS up, down_count AS down, 0 AS spend
        FROM conversations
      UNION ALL
      SELECT owner_id, bot_id, ${QUARTER('created_at')}, 0, NULL, 0, 0, 0, credits_cents + billable_cents
        FROM usage_events
    ) r
   CROSS JOIN LATERAL (VALUES (COALESCE(r.bot_id, 0)), (-1)) AS b(id)
   GROUP BY r.owner_id, b.id, r.quarter
  HAVING SUM(r.n) <> 0 OR SUM(r.messages) <> 0 OR SUM(r.up) <> 0 OR SUM(r.down) <> 0 OR SUM(r.spend) <> 0`;
const STORED = `
  SELECT owner_id, bot_id, quarter, conversations::bigint, resolved::bigint, handed_off::bigint, unanswered::bigint,
         abandoned::bigint, rated_down::bigint, messages::bigint, up_count::bigint, down_count::bigint, spend_cents
    FROM analytics_quarters`;

/** The rollup holds exactly the recounted rows: nothing missing, nothing extra (no emptied rows left). */
async function expectRollupExact(): Promise<void> {
  expect(await t.dataSource.query(`${RECOUNTED} EXCEPT ${STORED}`)).toEqual([]);
  expect(await t.dataSource.query(`${STORED} EXCEPT ${RECOUNTED}`)).toEqual([]);
}

/**
 * Runs `call` with the service's rollup read answered by the queries of the rows themselves (what
 * it does for a zone not in quarter hours): the figures recounted, through the same service.
 */
async function fromRows<T>(call: () => Promise<T>): Promise<T> {
  const repository = t.app.get(AnalyticsRepository);
  const spy = jest.spyOn(repository, 'fromQuarters').mockImplementation(async (scope, period) => {
    const [cells, spend, hours] = await Promise.all([
      repository.conversationCells(scope, period),
      repository.spendCells(scope, period),
      repository.hours(scope, period),
    ]);
    return { cells, spend, hours };
  });
  try {
    return await call();
  } finally {
    spy.mockRestore();
  }
}

/** GET /api/analytics, checked to be read from the rollup, not from the rows. */
async function fromRollup(agent: request.Agent, query: object): Promise<request.Response> {
  const repository = t.app.get(AnalyticsRepository);
  const rollup = jest.spyOn(repository, 'fromQuarters');
  const rows = jest.spyOn(repository, 'conversationCells');
  try {
    const response = await agent.get('/api/analytics').query(query);
    expect(response.status).toBe(200);
    expect(rollup).toHaveBeenCalledTimes(1);
    expect(rows).not.toHaveBeenCalled();
    return response;
  } finally {
    rollup.mockRestore();
    rows.mockRestore();
  }
}

/**
 * The totals over the same 366 days (which hold every row it is called with) in UTC, Kolkata and
 * Kathmandu, all from the rollup, and Kolkata's answer equal to the rows' own.
 */
async function totals(query: object = {}): Promise<Record<string, unknown>> {
  const period = { from: day(-364), to: day(1), groupBy: 'week', ...query };
  const utc = await fromRollup(owner, { ...period, timeZone: 'UTC' });
  const kolkata = await fromRollup(owner, { ...period, timeZone: 'Asia/Kolkata' });
  const kathmandu = await fromRollup(owner, { ...period, timeZone: 'Asia/Kathmandu' });
  const recounted = await fromRows(() => owner.get('/api/analytics').query({ ...period, timeZone: 'Asia/Kolkata' }));
  expect(kolkata.body).toEqual(recounted.body);
  expect(utc.body.totals).toEqual(kolkata.body.totals);
  expect(utc.body.totals).toEqual(kathmandu.body.totals);
  const weekly = (body: { series: Array<{ conversations: number; spendCents: number }> }) =>
    body.series.reduce((sum, week) => sum + week.conversations * 1000 + week.spendCents, 0);
  expect(weekly(utc.body)).toBe(weekly(kolkata.body));
  expect(weekly(utc.body)).toBe(weekly(kathmandu.body));
  expect(utc.body.hours.flat().reduce((a: number, b: number) => a + b, 0)).toBe(utc.body.totals.conversations);
  return utc.body.totals as Record<string, unknown>;
}

describe('analytics_quarters, the rollup of quarter hours', () => {
  it('stays the exact sum of the conversations and the ledger through every change the app makes', async () => {
    // Conversations on two bots, one visitor coming back, and one answer rated.
    const a = await chat(shop);
    await chat(shop, a.token);
    const b = await chat(shop);
    const c = await chat(blog);
    const d = await chat(blog);
    const e = await chat(shop);
    const rated = await t.http().post('/api/chat/feedback').set('X-Visitor-Token', c.token).send({
      botId: blog,
      messageId: c.messageId,
      rating: 'up',
    });
    expect(rated.status).toBe(204);
    // The offline model charges nothing: ledger rows written as the ledger writes them, one on a deleted-to-be bot.
    for (const [n, botId, cents] of [
      [1, shop, 3],
      [2, blog, 5],
    ]) {
      await t.dataSource.query(
        `INSERT INTO usage_events (owner_id, bot_id, model_tier, upstream_model, price_cents, credits_cents,
                                   billable_cents, period_start, report_identifier, created_at)
         SELECT owner_id, id, 'gpt-3.5-turbo', 'offline-demo', $2, $2, 0, '2026-11-03', $3, now() - interval '2 hours'
           FROM bots WHERE id = $1`,
        [botId, cents, `analytics-hours-spec-${n}-${botId}`],
      );
    }
    await expectRollupExact();
    let figures = await totals();
    expect(figures).toMatchObject({ conversations: 5, messages: 12, thumbsUp: 1, undecided: 5, spendCents: 8 });

    // Outcomes decided by the job, then one re-opened by a new message (undecided again), then decided again.
    // (Moved two hours back first: quiet for long enough now, and counted in another hour.)
    await t.dataSource.query(
      `UPDATE conversations SET created_at = created_at - interval '2 hours',
                                last_message_at = last_message_at - interval '2 hours'
        WHERE bot_id IN ($1, $2)`,
      [shop, blog],
    );
    await expectRollupExact();
    const outcomes = t.app.get(ConversationOutcomesService);
    await outcomes.run(new Date());
    await expectRollupExact();
    expect(await totals()).toMatchObject({ conversations: 5, undecided: 0 });
    await chat(shop, b.token);
    await expectRollupExact();
    figures = await totals();
    expect(figures).toMatchObject({ conversations: 5, messages: 14, undecided: 1 });
    const spend = figures.spendCents as number;
    await outcomes.run(new Date(Date.now() + 31 * 60 * 1000));
    await expectRollupExact();
    expect(await totals()).toMatchObject({ undecided: 0 });

    // The owner deletes one: its counts go, its spend stays (the ledger is kept).
    const deleted = await owner.delete(`/api/conversations/${a.conversationId}`).set('Origin', t.origin);
    expect(deleted.status).toBe(204);
    await expectRollupExact();
    figures = await totals();
    expect(figures).toMatchObject({ conversations: 4, messages: 10, spendCents: spend });

    // The visitor deletes theirs.
    const gone = await t.http().delete('/api/chat/conversations/current').set('X-Visitor-Token', d.token).send({
      botId: blog,
    });
    expect(gone.status).toBe(204);
    await expectRollupExact();
    expect(await totals()).toMatchObject({ conversations: 3, messages: 8 });

    // Retention: one conversation moved 400 days back (into another hour) and purged.
    const at = new Date(Date.now() - 400 * DAY_MS);
    await t.dataSource.query(`UPDATE conversations SET created_at = $2, last_message_at = $2 WHERE id = $1`, [
      e.conversationId,
      at,
    ]);
    await expectRollupExact();
    await t.app.get(ConversationRetentionService).run(new Date());
    await expectRollupExact();
    expect(await totals()).toMatchObject({ conversations: 2, messages: 6 });

    // A deleted bot: its conversations and charges stay the owner's (bot 0), no longer the bot's.
    const before = await totals();
    const removed = await owner.delete(`/api/bots/${blog}`).set('Origin', t.origin);
    expect(removed.status).toBe(200);
    await expectRollupExact();
    expect(await totals()).toEqual(before);
    expect(await totals({ botId: String(shop) })).toMatchObject({ conversations: 1, thumbsUp: 0 });
  });
  it('serves Kolkata (+05:30) and Kathmandu (+05:45) from the rollup, each row on its own side of the local midnight', async () => {
    const me = await signedInAgent(t);
    const botId = (await createChatBot(t, me.user.id, { name: 'Night' })).id;
    const d = day(-20);
    const next = day(-19);
    // UTC 18:10 is 23:40 in Kolkata and 23:55 in Kathmandu; 18:20 is 23:50 and 00:05 (the next
    // day); 18:40 is 00:10 and 00:25, both the next day. An hour's bucket (18:00) would put all
    // three on the first day in both.
    for (const time of ['18:10', '18:20', '18:40']) {
      const { conversationId } = await chat(botId);
      await t.dataSource.query(
        `UPDATE conversations SET created_at = $2, last_message_at = $2::timestamptz + interval '1 minute' WHERE id = $1`,
        [conversationId, `${d}T${time}:00Z`],
      );
    }
    // Charges at 18:14:59 (both zones' first day), 18:29:59 (Kolkata's first, Kathmandu's next)
    // and 18:30 (both zones' next day).
    for (const [time, cents] of [
      ['18:14:59', 1],
      ['18:29:59', 10],
      ['18:30:00', 100],
    ] as const) {
      await t.dataSource.query(
        `INSERT INTO usage_events (owner_id, bot_id, model_tier, upstream_model, price_cents, credits_cents,
                                   billable_cents, period_start, report_identifier, created_at)
         SELECT owner_id, id, 'gpt-3.5-turbo', 'offline-demo', $2, $2, 0, '2026-11-03', $3, $4
           FROM bots WHERE id = $1`,
        [botId, cents, `analytics-quarters-spec-${botId}-${time}`, `${d}T${time}Z`],
      );
    }
    await expectRollupExact();

    const isoWeekday = (date: string) => ((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
    const cases = [
      { timeZone: 'Asia/Kolkata', first: [2, 11], second: [1, 100], lateEvening: 2, pastMidnight: 1 },
      { timeZone: 'Asia/Kathmandu', first: [1, 1], second: [2, 110], lateEvening: 1, pastMidnight: 2 },
    ];
    for (const { timeZone, first, second, lateEvening, pastMidnight } of cases) {
      for (const query of [
        { from: d, to: next, groupBy: 'day', timeZone },
        { from: next, to: next, groupBy: 'day', timeZone, botId: String(botId) },
        { from: d, to: next, groupBy: 'week', timeZone },
      ]) {
        const served = await fromRollup(me.agent, query);
        const recounted = await fromRows(() => me.agent.get('/api/analytics').query(query));
        expect(served.body).toEqual(recounted.body);
      }
      const both = await fromRollup(me.agent, { from: d, to: next, groupBy: 'day', timeZone });
      expect(
        both.body.series.map((s: { conversations: number; spendCents: number }) => [s.conversations, s.spendCents]),
      ).toEqual([first, second]);
      expect(both.body.hours[isoWeekday(d) - 1][23]).toBe(lateEvening);
      expect(both.body.hours[isoWeekday(next) - 1][0]).toBe(pastMidnight);
      const nextOnly = await fromRollup(me.agent, { from: next, to: next, timeZone });
      expect(nextOnly.body.totals).toMatchObject({ conversations: second[0], spendCents: second[1] });
    }
  });
});
