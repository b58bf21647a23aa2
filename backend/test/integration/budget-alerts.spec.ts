import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type request from 'supertest';
import { BudgetAlertsRepository } from '../../src/modules/usage/budget-alerts.repository.js';
import { BudgetAlertsService } from '../../src/modules/usage/budget-alerts.service.js';
import { mailsTo, type ReadMail } from '../support/account-helpers.js';
import { chargeMessage } from '../support/billing-helpers.js';
import { createChatBot, usageOfOwner } from '../support/chat-factories.js';
import { createUser, signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { itOnServer } from '../support/test-database.js';

/**
 * Budget alerts through the real chat path: the owner is mailed when a bot's period spend passes
 * 50, 80 and 100 % of its monthly budget, and at each 50 % step of the account spend alert set in
 * Settings; each alert once per billing period, whoever and however many cross it at once.
 */
let t: TestApp;
const SESSION_SECRET = 'budget-alerts-spec-secret-0123456789abcdef';

beforeAll(async () => {
  t = await startTestApp({
    SESSION_SECRET,
    CHAT_IP_RATE_LIMIT: '1000',
    CHAT_BOT_RATE_LIMIT: '1000',
    OFFLINE_MODEL_WORD_DELAY_MS: '0',
  });
});
afterAll(() => t.close());

/**
 * A charged answer: the offline model answers a greeting, where a question it cannot answer would
 * be free (docs/product.md#the-fair-meter) and spend nothing.
 */
function chat(botId: number) {
  return t.http().post('/api/chat').send({ botId, prompt: 'Hello! When does the shop open?' });
}

/** Spend recorded straight in the ledger (as earlier answers of this period would have). */
async function alreadySpent(app: TestApp, ownerId: number, botId: number, priceCents: number): Promise<void> {
  await chargeMessage(app, ownerId, priceCents, undefined, { botId });
}

/** The alert mails `email` received so far, once every started check and mail has finished. */
async function alertsTo(app: TestApp, email: string): Promise<ReadMail[]> {
  await app.app.get(BudgetAlertsService).settled();
  return (await mailsTo(app, email)).filter((m) => /budget|spend/i.test(m.subject));
}

async function sendUntil(botId: number, status: number, max = 60): Promise<number> {
  for (let sent = 1; sent <= max; sent += 1) {
    if ((await chat(botId)).status === status) return sent;
  }
  throw new Error(`No ${status} within ${max} messages`);
}

describe('bot budget alerts', () => {
  it('mails the owner at 50 %, 80 % and 100 % of the monthly budget, once each, naming the bot', async () => {
    const owner = await createUser(t, { creditsCents: 5000 });
    const bot = await createChatBot(t, owner.id, { name: 'Acme Helper', usageLimitDollars: 1 });
    await alreadySpent(t, owner.id, bot.id, 45);
    expect(await alertsTo(t, owner.email)).toEqual([]);

    expect((await chat(bot.id)).status).toBe(200); // 48 cents
    expect(await alertsTo(t, owner.email)).toEqual([]);
    expect((await chat(bot.id)).status).toBe(200); // 51 cents: past 50 %
    let mails = await alertsTo(t, owner.email);
    expect(mails.map((m) => m.subject)).toEqual(['Acme Helper has used 50% of its monthly budget']);
    expect(mails[0].text).toContain('Acme Helper has spent $0.51 of its $1 monthly budget this billing period.');
    expect(mails[0].text).toContain(`${t.origin}/dashboard`);

    // 51 -> 81 cents: ten answers, one mail at 80 %.
    for (let i = 0; i < 10; i += 1) expect((await chat(bot.id)).status).toBe(200);
    mails = await alertsTo(t, owner.email);
    expect(mails.map((m) => m.subject)).toEqual([
      'Acme Helper has used 50% of its monthly budget',
      'Acme Helper has used 80% of its monthly budget',
    ]);

    // Up to 99 cents: the next 3-cent answer would not fit, so the budget is reached.
    await sendUntil(bot.id, 402);
    expect((await chat(bot.id)).status).toBe(402);
    mails = await alertsTo(t, owner.email);
    expect(mails.map((m) => m.subject)).toEqual([
      'Acme Helper has used 50% of its monthly budget',
      'Acme Helper has used 80% of its monthly budget',
      'Acme Helper has reached 100% of its monthly budget',
    ]);
    expect(mails[2].text).toContain('It no longer answers and is hidden from your website');
    expect(await usageOfOwner(t, owner.id)).toMatchObject({ priceCents: 99 });
    const rows: Array<{ step: number; bot_id: number }> = await t.dataSource.query(
      `SELECT step, bot_id FROM budget_alerts WHERE owner_id = $1 ORDER BY step`,
      [owner.id],
    );
    expect(rows).toEqual([
      { step: 50, bot_id: bot.id },
      { step: 80, bot_id: bot.id },
      { step: 100, bot_id: bot.id },
    ]);
  });

  it('sends one mail when two messages cross a step at the same time', async () => {
    const owner = await createUser(t, { creditsCents: 5000 });
    const bot = await createChatBot(t, owner.id, { name: 'Twin Bot', usageLimitDollars: 1 });
    await alreadySpent(t, owner.id, bot.id, 47);
    const answers = await Promise.all([chat(bot.id), chat(bot.id)]); // 50 and 53 cents
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    // And many checks of one crossing at once (as many instances would run them).
    await alreadySpent(t, owner.id, bot.id, 30); // 83 cents
    const alerts = t.app.get(BudgetAlertsService);
    for (let i = 0; i < 12; i += 1) alerts.afterSpend(owner.id, bot.id);
    expect((await alertsTo(t, owner.email)).map((m) => m.subject)).toEqual([
      'Twin Bot has used 50% of its monthly budget',
      'Twin Bot has used 80% of its monthly budget',
    ]);
  });

  it('sends nothing for a bot without a budget, and never fails an answer when the check fails', async () => {
    const owner = await createUser(t, { creditsCents: 5000 });
    const unlimited = await createChatBot(t, owner.id, { usageLimitDollars: 0 });
    await alreadySpent(t, owner.id, unlimited.id, 900);
    expect((await chat(unlimited.id)).status).toBe(200);

    const bot = await createChatBot(t, owner.id, { name: 'Unlucky Bot', usageLimitDollars: 1 });
    await alreadySpent(t, owner.id, bot.id, 60);
    const claim = jest
      .spyOn(t.app.get(BudgetAlertsRepository), 'claim')
      .mockRejectedValue(new Error('the database went away'));
    try {
      const answer = await chat(bot.id);
      expect(answer.status).toBe(200);
      expect(answer.body.message).toEqual(expect.any(String));
      await t.app.get(BudgetAlertsService).settled();
      expect(claim).toHaveBeenCalled();
    } finally {
      claim.mockRestore();
    }
    // Nothing was claimed, so the next answer's check sends the alert after all. (The owner's
    // $20 account alert stays silent: $9.66 is under its first step of $10.)
    expect((await chat(bot.id)).status).toBe(200);
    expect((await alertsTo(t, owner.email)).map((m) => m.subject)).toEqual([
      'Unlucky Bot has used 50% of its monthly budget',
    ]);
  });
});

describe('account spend alert (Settings)', () => {
  const put = (agent: request.Agent, body: unknown) =>
    agent
      .put('/api/user/settings')
      .set('Origin', t.origin)
      .send(body as object);

  it('mails at each 50 % step of the threshold the owner set, once per step', async () => {
    const { agent, user } = await signedInAgent(t, { creditsCents: 5000 });
    expect((await agent.get('/api/user/settings')).body).toEqual({
      spendAlertDollars: 20,
      conversationRetentionDays: 365,
      agentName: 'Support',
      timeZone: null,
      monthlyReport: true,
    });
    const saved = await put(agent, { spendAlertDollars: 1 });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({
      spendAlertDollars: 1,
      conversationRetentionDays: 365,
      agentName: 'Support',
      timeZone: null,
      monthlyReport: true,
    });

    const one = await createChatBot(t, user.id, { usageLimitDollars: 0 });
    const two = await createChatBot(t, user.id, { usageLimitDollars: 0 });
    await alreadySpent(t, user.id, one.id, 45);
    expect((await chat(two.id)).status).toBe(200); // 48 cents
    expect(await alertsTo(t, user.email)).toEqual([]);
    expect((await chat(one.id)).status).toBe(200); // 51 cents: 50 % of $1
    await alreadySpent(t, user.id, two.id, 47); // 98 cents
    expect((await chat(two.id)).status).toBe(200); // 101 cents: 100 %
    expect((await chat(one.id)).status).toBe(200); // 104 cents: still the 100 % step
    await alreadySpent(t, user.id, one.id, 200); // 304 cents
    expect((await chat(one.id)).status).toBe(200); // 307 cents: 300 %, one mail (not 150, 200, 250 too)

    const mails = await alertsTo(t, user.email);
    expect(mails.map((m) => m.subject)).toEqual([
      'Your Botsmith spend this month has passed 50% of your $1 alert',
      'Your Botsmith spend this month has passed 100% of your $1 alert',
      'Your Botsmith spend this month has passed 300% of your $1 alert',
    ]);
    expect(mails[1].text).toContain('Your bots have spent $1.01 this billing period');
  });

  it('sends no account alert at 0, and the default $20 needs $10 of spend for the first', async () => {
    const user = await createUser(t, { creditsCents: 5000 });
    const bot = await createChatBot(t, user.id, { usageLimitDollars: 0 });
    await alreadySpent(t, user.id, bot.id, 998);
    expect((await chat(bot.id)).status).toBe(200); // $10.01 of $20
    expect((await alertsTo(t, user.email)).map((m) => m.subject)).toEqual([
      'Your Botsmith spend this month has passed 50% of your $20 alert',
    ]);

    const { agent: quiet, user: quietUser } = await signedInAgent(t, { creditsCents: 5000 });
    expect((await put(quiet, { spendAlertDollars: 0 })).body).toEqual({
      spendAlertDollars: 0,
      conversationRetentionDays: 365,
      agentName: 'Support',
      timeZone: null,
      monthlyReport: true,
    });
    const quietBot = await createChatBot(t, quietUser.id, { usageLimitDollars: 0 });
    await alreadySpent(t, quietUser.id, quietBot.id, 5000);
    expect((await chat(quietBot.id)).status).toBe(200);
    expect(await alertsTo(t, quietUser.email)).toEqual([]);
  });

  it('validates the setting: a whole number of dollars from 0 to 1,000,000, nothing else', async () => {
    const { agent } = await signedInAgent(t);
    const refused: Array<[unknown, string]> = [
      [{ spendAlertDollars: -1 }, 'Invalid spendAlertDollars: must be a whole number of dollars, 0 or more.'],
      [{ spendAlertDollars: 2.5 }, 'Invalid spendAlertDollars: must be a whole number of dollars, 0 or more.'],
      [{ spendAlertDollars: '20' }, 'Invalid spendAlertDollars: must be a whole number of dollars, 0 or more.'],
      [{ spendAlertDollars: null }, 'Invalid spendAlertDollars: must be a whole number of dollars, 0 or more.'],
      [{}, 'Invalid spendAlertDollars: must be a whole number of dollars, 0 or more.'],
      [{ spendAlertDollars: 1_000_001 }, 'Invalid spendAlertDollars: must be at most 1000000.'],
      [{ spendAlertDollars: 5, ownerId: 1 }, 'Property ownerId should not exist.'],
      [{ spendAlertDollars: { $gt: 0 } }, 'Invalid spendAlertDollars: must be a whole number of dollars, 0 or more.'],
    ];
    for (const [body, error] of refused) {
      const response = await put(agent, body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error, code: 'VALIDATION_FAILED' });
    }
    expect((await agent.get('/api/user/settings')).body).toEqual({
      spendAlertDollars: 20,
      conversationRetentionDays: 365,
      agentName: 'Support',
      timeZone: null,
      monthlyReport: true,
    });
    expect((await put(agent, { spendAlertDollars: 1_000_000 })).body).toEqual({
      spendAlertDollars: 1_000_000,
      conversationRetentionDays: 365,
      agentName: 'Support',
      timeZone: null,
      monthlyReport: true,
    });
  });

  it("is the signed-in owner's own: nobody reads or changes another owner's, and strangers get 401", async () => {
    const a = await signedInAgent(t);
    const b = await signedInAgent(t);
    expect((await put(a.agent, { spendAlertDollars: 75 })).status).toBe(200);
    expect((await b.agent.get('/api/user/settings')).body).toEqual({
      spendAlertDollars: 20,
      conversationRetentionDays: 365,
      agentName: 'Support',
      timeZone: null,
      monthlyReport: true,
    });
    expect((await a.agent.get('/api/user/settings')).body).toEqual({
      spendAlertDollars: 75,
      conversationRetentionDays: 365,
      agentName: 'Support',
      timeZone: null,
      monthlyReport: true,
    });
    const rows: Array<{ id: number; spend_alert_dollars: number }> = await t.dataSource.query(
      `SELECT id, spend_alert_dollars FROM users WHERE id = ANY($1) ORDER BY id`,
      [[a.user.id, b.user.id]],
    );
    expect(rows).toEqual([
      { id: a.user.id, spend_alert_dollars: 75 },
      { id: b.user.id, spend_alert_dollars: 20 },
    ]);

    const stranger = await t.http().get('/api/user/settings');
    expect(stranger.status).toBe(401);
    const strangerPut = await t.http().put('/api/user/settings').set('Origin', t.origin).send({ spendAlertDollars: 1 });
    expect(strangerPut.status).toBe(401);
    // A cross-site form cannot change it either (the Origin check on state-changing calls).
    const crossSite = await a.agent
      .put('/api/user/settings')
      .set('Origin', 'https://evil.example')
      .send({ spendAlertDollars: 1 });
    expect(crossSite.status).toBe(403);
    expect((await a.agent.get('/api/user/settings')).body).toEqual({
      spendAlertDollars: 75,
      conversationRetentionDays: 365,
      agentName: 'Support',
      timeZone: null,
      monthlyReport: true,
    });
  });

  it("mails each alert to the bot's owner only", async () => {
    const owner = await createUser(t, { creditsCents: 5000 });
    const bystander = await createUser(t, { creditsCents: 5000 });
    const bot = await createChatBot(t, owner.id, { name: 'Private Bot', usageLimitDollars: 1 });
    await alreadySpent(t, owner.id, bot.id, 49);
    expect((await chat(bot.id)).status).toBe(200);
    expect((await alertsTo(t, owner.email)).map((m) => m.subject)).toEqual([
      'Private Bot has used 50% of its monthly budget',
    ]);
    expect(await alertsTo(t, bystander.email)).toEqual([]);
  });
});

// Last: a second app on the same database registers its own passport strategies (a process-wide
// singleton), so logins in this file must happen before it starts and closes.
describe('across instances', () => {
  itOnServer('sends one mail across two instances crossing the same step', async () => {
    const second = await startTestApp({ DATABASE_URL: t.database.url, SESSION_SECRET });
    try {
      const owner = await createUser(t, { creditsCents: 5000 });
      const bot = await createChatBot(t, owner.id, { name: 'Shared Bot', usageLimitDollars: 2 });
      await alreadySpent(t, owner.id, bot.id, 120); // 60 %
      for (let i = 0; i < 5; i += 1) {
        t.app.get(BudgetAlertsService).afterSpend(owner.id, bot.id);
        second.app.get(BudgetAlertsService).afterSpend(owner.id, bot.id);
      }
      const mails = [...(await alertsTo(t, owner.email)), ...(await alertsTo(second, owner.email))];
      expect(mails.map((m) => m.subject)).toEqual(['Shared Bot has used 50% of its monthly budget']);
    } finally {
      await second.close();
    }
  });
});
