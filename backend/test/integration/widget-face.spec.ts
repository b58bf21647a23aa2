import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { periodStartFor } from '../../src/common/billing-period.js';
import { MODEL_CATALOGUE } from '../../src/common/constants.js';
import { UsageLedgerService } from '../../src/modules/usage/usage-ledger.service.js';
import { chargeMessage } from '../support/billing-helpers.js';
import { createChatBot, NO_LEADS } from '../support/chat-factories.js';
import { createUser } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * GET /api/widget/bots/{id} decides `hidden` (here for bots that take no leads; with lead capture
 * at the cap the same decision gives `leadOnly` instead, see leads.spec.ts) from one query (bot + owner billing row + period
 * spend). These tests pin that decision to the same rules as chat: the owner rule of
 * UsageLedgerService.getOwnerBillingState and the bot's budget for the current period only.
 */
let t: TestApp;
let ledger: UsageLedgerService;

beforeAll(async () => {
  t = await startTestApp();
  ledger = t.app.get(UsageLedgerService);
});
afterAll(() => t.close());

async function charge(ownerId: number, botId: number, priceCents: number, at?: Date): Promise<void> {
  await chargeMessage(t, ownerId, priceCents, at, { botId });
}

async function face(botId: number): Promise<{ status: number; hidden: unknown }> {
  const response = await t.http().get(`/api/widget/bots/${botId}`);
  return { status: response.status, hidden: (response.body as { bot?: { hidden?: unknown } }).bot?.hidden };
}

describe('GET /api/widget/bots/{id}: hidden, decided in one query', () => {
  it('follows the owner billing rule exactly as chat does, for every owner state', async () => {
    const cases = [
      { options: { billing: 'paid' as const, creditsCents: 0 }, hidden: false },
      { options: { billing: 'failed' as const, creditsCents: 500 }, hidden: true },
      { options: { billing: 'customer' as const, creditsCents: 0 }, hidden: true },
      { options: { billing: 'customer' as const, creditsCents: 1 }, hidden: false },
      { options: { billing: 'none' as const, creditsCents: 0 }, hidden: true },
      { options: { billing: 'none' as const, creditsCents: 500 }, hidden: false },
    ];
    for (const c of cases) {
      const owner = await createUser(t, c.options);
      const bot = await createChatBot(t, owner.id, { usageLimitDollars: 5, ...NO_LEADS });
      const state = await ledger.getOwnerBillingState(owner.id);
      expect(await face(bot.id)).toEqual({ status: 200, hidden: c.hidden });
      expect(!state.canServe).toBe(c.hidden);
    }
  });

  it('answers 404 BOT_NOT_FOUND once the owner account is deleted, not a stale face', async () => {
    const owner = await createUser(t, { billing: 'paid' });
    const bot = await createChatBot(t, owner.id, NO_LEADS);
    expect(await face(bot.id)).toEqual({ status: 200, hidden: false });
    await t.dataSource.query(`UPDATE users SET deleted_at = now() WHERE id = $1`, [owner.id]);
    const response = await t.http().get(`/api/widget/bots/${bot.id}`);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: 'This chatbot does not exist.', code: 'BOT_NOT_FOUND' });
  });

  it('shows a capped bot while the next message fits its budget and hides it the moment it would not', async () => {
    const price = MODEL_CATALOGUE['gpt-3.5-turbo'].priceCents;
    const owner = await createUser(t, { billing: 'paid' });
    const bot = await createChatBot(t, owner.id, { model: 'gpt-3.5-turbo', usageLimitDollars: 1, ...NO_LEADS });
    expect(await face(bot.id)).toEqual({ status: 200, hidden: false });

    // Exactly one message of room left: still visible.
    await charge(owner.id, bot.id, 100 - price);
    expect(await face(bot.id)).toEqual({ status: 200, hidden: false });
    // One cent more and the next message would overshoot: hidden, with no delay.
    await charge(owner.id, bot.id, 1);
    expect(await face(bot.id)).toEqual({ status: 200, hidden: true });

    // Raising the limit shows it again at once.
    await t.dataSource.query(`UPDATE bots SET usage_limit_dollars = 2 WHERE id = $1`, [bot.id]);
    expect(await face(bot.id)).toEqual({ status: 200, hidden: false });
  });

  it("counts only this bot's spend of the current period", async () => {
    const owner = await createUser(t, { billing: 'paid' });
    const bot = await createChatBot(t, owner.id, { model: 'gpt-3.5-turbo', usageLimitDollars: 1, ...NO_LEADS });
    const sibling = await createChatBot(t, owner.id, { model: 'gpt-3.5-turbo', usageLimitDollars: 1, ...NO_LEADS });
    const lastPeriod = new Date(periodStartFor(new Date()).getTime() - 24 * 3600 * 1000);
    await charge(owner.id, bot.id, 500, lastPeriod);
    await charge(owner.id, sibling.id, 500);
    expect(await face(bot.id)).toEqual({ status: 200, hidden: false });
    expect(await face(sibling.id)).toEqual({ status: 200, hidden: true });
  });

  it('never hides a bot without a limit for its spend', async () => {
    const owner = await createUser(t, { billing: 'paid' });
    const bot = await createChatBot(t, owner.id, { usageLimitDollars: 0, ...NO_LEADS });
    await charge(owner.id, bot.id, 10_000);
    expect(await face(bot.id)).toEqual({ status: 200, hidden: false });
  });
});
