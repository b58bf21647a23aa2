import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type request from 'supertest';
import { ConversationRetentionService } from '../../src/modules/conversations/conversation-retention.service.js';
import { createChatBot, usageOfOwner } from '../support/chat-factories.js';
import { signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Conversation retention (docs/product.md#retention-and-visitor-privacy) on a real database:
 * conversations are logged through POST /api/chat (so the usage ledger has rows pointing at
 * their messages), aged by moving their times back, and the daily job is run directly.
 */
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ OFFLINE_MODEL_WORD_DELAY_MS: '0' });
});
afterAll(() => t.close());

const DAY_MS = 24 * 60 * 60 * 1000;
const put = (agent: request.Agent, body: unknown) =>
  agent
    .put('/api/user/settings')
    .set('Origin', t.origin)
    .send(body as object);

/** One visitor's conversation through the widget path (with who the host page says they are); returns its id. */
async function converse(botId: number, visitor?: { name?: string; email?: string }): Promise<number> {
  const answer = await t.http().post('/api/chat').send({ botId, prompt: 'When do you open?', visitor });
  expect(answer.status).toBe(200);
  const rows: Array<{ id: number }> = await t.dataSource.query(
    `SELECT conversation_id AS id FROM messages WHERE id = $1`,
    [answer.body.messageId],
  );
  return Number(rows[0].id);
}

/** Moves a conversation (and its messages) `days` into the past. */
async function age(conversationId: number, days: number): Promise<void> {
  const at = new Date(Date.now() - days * DAY_MS);
  await t.dataSource.query(`UPDATE conversations SET created_at = $2, last_message_at = $2 WHERE id = $1`, [
    conversationId,
    at,
  ]);
  await t.dataSource.query(`UPDATE messages SET created_at = $2 WHERE conversation_id = $1`, [conversationId, at]);
}

async function stored(conversationId: number): Promise<{ conversations: number; messages: number }> {
  const [row]: Array<{ c: string; m: string }> = await t.dataSource.query(
    `SELECT (SELECT COUNT(*) FROM conversations WHERE id = $1) AS c,
            (SELECT COUNT(*) FROM messages WHERE conversation_id = $1) AS m`,
    [conversationId],
  );
  return { conversations: Number(row.c), messages: Number(row.m) };
}

async function usageAnswers(agent: request.Agent, botId: number): Promise<unknown[]> {
  const paths = ['/api/user/usage', '/api/user/usage-history', `/api/bots/${botId}/usage`];
  return Promise.all(
    paths.map(async (path) => {
      const response = await agent.get(path);
      expect(response.status).toBe(200);
      return response.body as unknown;
    }),
  );
}

const runRetention = (batchSize?: number) => t.app.get(ConversationRetentionService).run(new Date(), batchSize);

describe('conversation retention', () => {
  it('is 365 days for a new account, and the owner can choose 30, 90, 365 or forever', async () => {
    const { agent } = await signedInAgent(t);
    expect((await agent.get('/api/user/settings')).body).toEqual({
      spendAlertDollars: 20,
      conversationRetentionDays: 365,
      agentName: 'Support',
      timeZone: null,
      monthlyReport: true,
    });
    for (const days of [30, 90, null, 365]) {
      const saved = await put(agent, { conversationRetentionDays: days });
      expect(saved.status).toBe(200);
      // The spend alert, absent from the request, keeps its value.
      expect(saved.body).toEqual({
        spendAlertDollars: 20,
        conversationRetentionDays: days,
        agentName: 'Support',
        timeZone: null,
        monthlyReport: true,
      });
    }
    expect((await put(agent, { spendAlertDollars: 5 })).body).toEqual({
      spendAlertDollars: 5,
      conversationRetentionDays: 365,
      agentName: 'Support',
      timeZone: null,
      monthlyReport: true,
    });
    expect((await put(agent, { spendAlertDollars: 7, conversationRetentionDays: 90 })).body).toEqual({
      spendAlertDollars: 7,
      conversationRetentionDays: 90,
      agentName: 'Support',
      timeZone: null,
      monthlyReport: true,
    });
  });

  it('refuses any other retention with a clear 400 and keeps the saved one', async () => {
    const { agent } = await signedInAgent(t);
    const message = 'Invalid conversationRetentionDays: must be 30, 90, 365, or null (forever).';
    for (const days of [45, 'abc', '30', 0, -30, 366, 30.5, true, [30], { $gt: 0 }]) {
      const response = await put(agent, { conversationRetentionDays: days });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: message, code: 'VALIDATION_FAILED' });
    }
    const both = await put(agent, { spendAlertDollars: -1, conversationRetentionDays: 45 });
    expect(both.status).toBe(400);
    const hidden = await put(agent, { conversationRetentionDays: 30, ownerId: 1 });
    expect(hidden.body).toEqual({ error: 'Property ownerId should not exist.', code: 'VALIDATION_FAILED' });
    expect((await agent.get('/api/user/settings')).body).toEqual({
      spendAlertDollars: 20,
      conversationRetentionDays: 365,
      agentName: 'Support',
      timeZone: null,
      monthlyReport: true,
    });
  });

  it("deletes conversations past their owner's retention with their messages; newer ones, forever owners' and the usage figures stay", async () => {
    const month = await signedInAgent(t, { creditsCents: 10_000 });
    const forever = await signedInAgent(t, { creditsCents: 10_000 });
    const byDefault = await signedInAgent(t, { creditsCents: 10_000 });
    expect((await put(month.agent, { conversationRetentionDays: 30 })).status).toBe(200);
    expect((await put(forever.agent, { conversationRetentionDays: null })).status).toBe(200);
    const monthBot = await createChatBot(t, month.user.id);
    const foreverBot = await createChatBot(t, forever.user.id);
    const defaultBot = await createChatBot(t, byDefault.user.id);

    const expired = await converse(monthBot.id, { name: 'Retention Visitor', email: 'gone@retention.example' });
    const recent = await converse(monthBot.id);
    const kept = await converse(foreverBot.id);
    const pastAYear = await converse(defaultBot.id);
    const underAYear = await converse(defaultBot.id);
    await age(expired, 31);
    await age(recent, 29);
    await age(kept, 3_000);
    await age(pastAYear, 366);
    await age(underAYear, 364);
    // A rating is part of the conversation and goes with it.
    await t.dataSource.query(`UPDATE messages SET rating = 'down' WHERE conversation_id = $1 AND role = 'assistant'`, [
      expired,
    ]);

    const ledgerBefore = await Promise.all([month, forever, byDefault].map((o) => usageOfOwner(t, o.user.id)));
    const answersBefore = await usageAnswers(month.agent, monthBot.id);
    expect(ledgerBefore.map((u) => u.rows)).toEqual([2, 1, 2]);

    // Batches of one: the job loops over several transactions.
    const result = await runRetention(1);
    expect(result.skipped).toBe(false);
    expect(result.deleted).toBeGreaterThanOrEqual(2);

    expect(await stored(expired)).toEqual({ conversations: 0, messages: 0 });
    // Who the visitor said they were went with the conversation.
    const identity: unknown[] = await t.dataSource.query(
      `SELECT id FROM conversations WHERE visitor_name = 'Retention Visitor' OR visitor_email = 'gone@retention.example'`,
    );
    expect(identity).toEqual([]);
    expect(await stored(pastAYear)).toEqual({ conversations: 0, messages: 0 });
    expect(await stored(recent)).toEqual({ conversations: 1, messages: 2 });
    expect(await stored(kept)).toEqual({ conversations: 1, messages: 2 });
    expect(await stored(underAYear)).toEqual({ conversations: 1, messages: 2 });

    // The ledger keeps every billing row (no longer pointing at a message), so every figure stays.
    expect(await Promise.all([month, forever, byDefault].map((o) => usageOfOwner(t, o.user.id)))).toEqual(ledgerBefore);
    expect(await usageAnswers(month.agent, monthBot.id)).toEqual(answersBefore);
    const orphans: Array<{ n: string }> = await t.dataSource.query(
      `SELECT COUNT(*) AS n FROM usage_events WHERE owner_id = $1 AND message_id IS NULL`,
      [month.user.id],
    );
    expect(Number(orphans[0].n)).toBe(1);

    // The inbox no longer lists it.
    const inbox = await month.agent.get('/api/conversations');
    expect(inbox.status).toBe(200);
    expect(JSON.stringify(inbox.body)).not.toContain(`"id":${expired},`);

    // Running again deletes nothing more.
    expect(await runRetention()).toEqual({ deleted: 0, skipped: false });
    expect(await stored(recent)).toEqual({ conversations: 1, messages: 2 });
  });

  it('follows a change of setting: shortening it deletes what the new one no longer keeps', async () => {
    const { agent, user } = await signedInAgent(t, { creditsCents: 10_000 });
    const bot = await createChatBot(t, user.id);
    const old = await converse(bot.id);
    await age(old, 100);
    await runRetention();
    expect(await stored(old)).toEqual({ conversations: 1, messages: 2 });
    expect((await put(agent, { conversationRetentionDays: 90 })).status).toBe(200);
    await runRetention();
    expect(await stored(old)).toEqual({ conversations: 0, messages: 0 });
  });

  it('a conversation that goes on is kept: the age counts from its last message', async () => {
    const { agent, user } = await signedInAgent(t, { creditsCents: 10_000 });
    expect((await put(agent, { conversationRetentionDays: 30 })).status).toBe(200);
    const bot = await createChatBot(t, user.id);
    const id = await converse(bot.id);
    // Started 60 days ago, last message yesterday.
    await t.dataSource.query(
      `UPDATE conversations SET created_at = now() - interval '60 days', last_message_at = now() - interval '1 day' WHERE id = $1`,
      [id],
    );
    await runRetention();
    expect(await stored(id)).toEqual({ conversations: 1, messages: 2 });
  });
});
