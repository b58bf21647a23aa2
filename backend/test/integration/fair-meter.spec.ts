import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CANNOT_ANSWER_SENTENCE } from '@botsmith/contract';
import { UsageLedgerService } from '../../src/modules/usage/usage-ledger.service.js';
import { chargeMessage } from '../support/billing-helpers.js';
import { createChatBot, creditsOf, NO_LEADS, usageOfOwner } from '../support/chat-factories.js';
import { signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { itOnServer } from '../support/test-database.js';

/**
 * The fair meter (docs/product.md#the-fair-meter): an answer the bot could not give keeps its one
 * ledger row, at 0 cents with its reason, and moves neither the usage figures, the credits, the
 * budget nor the meter's queue; the next answered message is charged, once. Through the real app
 * with the offline demo model, which answers a bot without knowledge with the cannot-answer
 * sentence (unanswered) and a greeting with a greeting (answered).
 */
const SESSION_SECRET = 'fair-meter-test-secret-0123456789abcdef';
const SITE = 'https://shop.example';
const UNANSWERED = 'What is the airspeed of a swallow?';
const ANSWERED = 'Hello there';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ OFFLINE_MODEL_WORD_DELAY_MS: '0', SESSION_SECRET });
});
afterAll(() => t.close());

async function ask(app: TestApp, botId: number, prompt: string, token?: string) {
  const call = app.http().post('/api/chat').set('Origin', SITE);
  if (token) call.set('X-Visitor-Token', token);
  const response = await call.send({ botId, prompt });
  expect(response.status).toBe(200);
  return {
    body: response.body as { message: string; messageId: number; unanswered?: true },
    token: String(response.headers['x-visitor-token']),
  };
}

async function ledgerRows(ownerId: number) {
  return t.dataSource.query<
    Array<{ price_cents: number; credits_cents: number; billable_cents: number; not_charged_reason: string | null }>
  >(
    `SELECT price_cents, credits_cents, billable_cents, not_charged_reason FROM usage_events
      WHERE owner_id = $1 ORDER BY id`,
    [ownerId],
  );
}

/** The owner's rows the meter reporter would send to the payment provider next. */
async function pendingMeter(ownerId: number): Promise<number[]> {
  const rows = await t.app.get(UsageLedgerService).findUnreported(undefined, 10_000);
  return rows.filter((row) => row.ownerId === ownerId).map((row) => row.billableCents);
}

async function reservations(botId: number): Promise<number> {
  const rows = await t.dataSource.query<Array<{ n: number }>>(
    `SELECT COUNT(*)::int AS n FROM chat_reservations WHERE bot_id = $1`,
    [botId],
  );
  return rows[0].n;
}

describe('the fair meter', () => {
  it('records an unanswered answer at 0 cents with its reason; the next answered one is charged once', async () => {
    const { agent, user } = await signedInAgent(t, { billing: 'paid', creditsCents: 500 });
    const bot = await createChatBot(t, user.id, { model: 'gpt-4o' });

    const missed = await ask(t, bot.id, UNANSWERED);
    expect(missed.body.message.startsWith(CANNOT_ANSWER_SENTENCE)).toBe(true);
    expect(missed.body.unanswered).toBe(true);
    expect(await ledgerRows(user.id)).toEqual([
      { price_cents: 0, credits_cents: 0, billable_cents: 0, not_charged_reason: 'unanswered' },
    ]);
    const [message] = await t.dataSource.query<Array<{ cost_cents: number }>>(
      `SELECT cost_cents FROM messages WHERE id = $1`,
      [missed.body.messageId],
    );
    expect(message.cost_cents).toBe(0);
    expect(await creditsOf(t, user.id)).toBe(500);
    const before = await agent.get('/api/user/usage');
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ usageCents: 0, creditsCents: 500, notChargedAnswers: 1 });
    const botBefore = await agent.get(`/api/bots/${bot.id}/usage`);
    expect(botBefore.body).toMatchObject({ usageCents: 0, notChargedAnswers: 1 });

    const answered = await ask(t, bot.id, ANSWERED, missed.token);
    expect(answered.body.unanswered).toBeUndefined();
    expect(await ledgerRows(user.id)).toEqual([
      { price_cents: 0, credits_cents: 0, billable_cents: 0, not_charged_reason: 'unanswered' },
      { price_cents: 5, credits_cents: 5, billable_cents: 0, not_charged_reason: null },
    ]);
    expect(await creditsOf(t, user.id)).toBe(495);
    const after = await agent.get('/api/user/usage');
    expect(after.body).toMatchObject({ usageCents: 5, creditsCents: 495, notChargedAnswers: 1 });
    const history = await agent.get('/api/user/usage-history');
    expect((history.body as { costs: number[] }).costs.reduce((a, b) => a + b, 0)).toBe(5);
  });

  it("leaves the meter's pending usage unchanged, and queues the next answered message once", async () => {
    const { user } = await signedInAgent(t, { billing: 'paid', creditsCents: 0 });
    const bot = await createChatBot(t, user.id, { model: 'gpt-4o' });
    const missed = await ask(t, bot.id, UNANSWERED);
    expect(await pendingMeter(user.id)).toEqual([]);
    await ask(t, bot.id, ANSWERED, missed.token);
    expect(await pendingMeter(user.id)).toEqual([5]);
    expect(await usageOfOwner(t, user.id)).toEqual({ rows: 2, priceCents: 5, creditsCents: 0, billableCents: 5 });
  });

  it('still charges an answer the visitor rated down', async () => {
    const { user } = await signedInAgent(t, { billing: 'customer', creditsCents: 500 });
    const bot = await createChatBot(t, user.id, { model: 'gpt-4o' });
    const answered = await ask(t, bot.id, ANSWERED);
    const rated = await t
      .http()
      .post('/api/chat/feedback')
      .set('Origin', SITE)
      .set('X-Visitor-Token', answered.token)
      .send({ botId: bot.id, messageId: answered.body.messageId, rating: 'down' });
    expect(rated.status).toBe(204);
    expect(await ledgerRows(user.id)).toEqual([
      { price_cents: 5, credits_cents: 5, billable_cents: 0, not_charged_reason: null },
    ]);
    expect(await creditsOf(t, user.id)).toBe(495);
  });

  it("releases the budget reservation of an unanswered answer: the bot's budget is not spent", async () => {
    const { agent, user } = await signedInAgent(t, { billing: 'paid', creditsCents: 500 });
    const bot = await createChatBot(t, user.id, { model: 'gpt-4o', usageLimitDollars: 1, ...NO_LEADS });
    // 95 cents already spent this period: room for exactly one more answer at 5 cents.
    await chargeMessage(t, user.id, 95, undefined, { botId: bot.id });
    let token: string | undefined;
    for (let i = 0; i < 5; i += 1) {
      token = (await ask(t, bot.id, UNANSWERED, token)).token;
      expect(await reservations(bot.id)).toBe(0);
    }
    expect((await agent.get(`/api/bots/${bot.id}/usage`)).body).toMatchObject({ usageCents: 95, notChargedAnswers: 5 });
    const face = await t.http().get(`/api/widget/bots/${bot.id}`).set('Origin', SITE);
    expect(face.body.bot).toMatchObject({ hidden: false });

    // The one answer the budget still holds is given and charged; then the budget is reached.
    await ask(t, bot.id, ANSWERED, token);
    const refused = await t.http().post('/api/chat').set('Origin', SITE).send({ botId: bot.id, prompt: ANSWERED });
    expect(refused.status).toBe(402);
    expect(refused.body.code).toBe('BOT_BUDGET_REACHED');
    expect(await usageOfOwner(t, user.id)).toMatchObject({ rows: 7, priceCents: 100 });
    expect(await reservations(bot.id)).toBe(0);
  });

  itOnServer('holds across two instances: one row each, only answered ones charged', async () => {
    const second = await startTestApp({
      DATABASE_URL: t.database.url,
      OFFLINE_MODEL_WORD_DELAY_MS: '0',
      SESSION_SECRET,
    });
    try {
      const { user } = await signedInAgent(t, { billing: 'paid', creditsCents: 12 });
      const bot = await createChatBot(t, user.id, { model: 'gpt-4o' });
      // Eight visitors at once, alternating instances; half ask what the bot cannot answer.
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => ask(i % 2 === 0 ? t : second, bot.id, i < 4 ? UNANSWERED : ANSWERED)),
      );
      expect(answers.filter((a) => a.body.unanswered)).toHaveLength(4);
      expect(await usageOfOwner(t, user.id)).toEqual({ rows: 8, priceCents: 20, creditsCents: 12, billableCents: 8 });
      const rows = await ledgerRows(user.id);
      expect(rows.filter((row) => row.not_charged_reason === 'unanswered')).toHaveLength(4);
      expect(rows.filter((row) => row.price_cents === 5)).toHaveLength(4);
      expect(await creditsOf(t, user.id)).toBe(0);
      expect((await pendingMeter(user.id)).reduce((a, b) => a + b, 0)).toBe(8);
    } finally {
      await second.close();
    }
  });
});
