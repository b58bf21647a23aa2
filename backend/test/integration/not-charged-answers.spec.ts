import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { transactionOf } from '../../src/database/transaction.js';
import { UsageLedgerService } from '../../src/modules/usage/usage-ledger.service.js';
import { chargeMessage } from '../support/billing-helpers.js';
import { createChatBot, creditsOf, usageOfOwner } from '../support/chat-factories.js';
import { signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The ledger's row for an answer that was not charged (issue 29, item 5): 0 cents with its
 * reason, no credit spent, nothing queued for the meter, and counted by the usage figures as
 * `notChargedAnswers` while the spend does not move.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

function recordUncharged(ownerId: number, botId: number) {
  const ledger = t.app.get(UsageLedgerService);
  return t.dataSource.transaction((manager) =>
    ledger.recordUnchargedAnswer(
      transactionOf(manager),
      {
        ownerId,
        botId,
        messageId: null,
        modelTier: 'gpt-4o',
        upstreamModel: 'gpt-4o',
        promptTokens: 10,
        completionTokens: 5,
      },
      'unanswered',
    ),
  );
}

async function pendingMeter(ownerId: number): Promise<number[]> {
  const rows = await t.app.get(UsageLedgerService).findUnreported(undefined, 10_000);
  return rows.filter((row) => row.ownerId === ownerId).map((row) => row.billableCents);
}

describe('an answer recorded without a charge', () => {
  it('is one 0-cent row with its reason; credits, spend and the meter stay; the usage figures count it', async () => {
    const { agent, user } = await signedInAgent(t, { billing: 'paid', creditsCents: 3 });
    const bot = await createChatBot(t, user.id, { model: 'gpt-4o' });
    await expect(recordUncharged(user.id, bot.id)).resolves.toMatchObject({ creditsCents: 0, billableCents: 0 });
    const rows = await t.dataSource.query<Array<Record<string, unknown>>>(
      `SELECT price_cents, credits_cents, billable_cents, not_charged_reason, total_tokens FROM usage_events WHERE owner_id = $1`,
      [user.id],
    );
    expect(rows).toEqual([
      { price_cents: 0, credits_cents: 0, billable_cents: 0, not_charged_reason: 'unanswered', total_tokens: 15 },
    ]);
    expect(await creditsOf(t, user.id)).toBe(3);
    expect(await pendingMeter(user.id)).toEqual([]);
    expect((await agent.get('/api/user/usage')).body).toMatchObject({ usageCents: 0, notChargedAnswers: 1 });
    expect((await agent.get(`/api/bots/${bot.id}/usage`)).body).toMatchObject({ usageCents: 0, notChargedAnswers: 1 });

    // The next charged answer is charged once, credits first; the count of uncharged ones stays.
    await chargeMessage(t, user.id, 5, undefined, { botId: bot.id });
    expect(await usageOfOwner(t, user.id)).toEqual({ rows: 2, priceCents: 5, creditsCents: 3, billableCents: 2 });
    expect(await creditsOf(t, user.id)).toBe(0);
    expect(await pendingMeter(user.id)).toEqual([2]);
    expect((await agent.get('/api/user/usage')).body).toMatchObject({ usageCents: 5, notChargedAnswers: 1 });
  });

  it("counts only the owner's own rows, and a bot's only its own", async () => {
    const a = await signedInAgent(t);
    const b = await signedInAgent(t);
    const botA = await createChatBot(t, a.user.id);
    const otherBotA = await createChatBot(t, a.user.id);
    const botB = await createChatBot(t, b.user.id);
    await recordUncharged(a.user.id, botA.id);
    await recordUncharged(a.user.id, botA.id);
    await recordUncharged(b.user.id, botB.id);
    expect((await a.agent.get('/api/user/usage')).body).toMatchObject({ notChargedAnswers: 2 });
    expect((await a.agent.get(`/api/bots/${otherBotA.id}/usage`)).body).toMatchObject({ notChargedAnswers: 0 });
    expect((await a.agent.get(`/api/bots/${botB.id}/usage`)).status).toBe(404);
  });
});
