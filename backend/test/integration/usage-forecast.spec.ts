import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { UsageClock } from '../../src/modules/usage/usage-clock.js';
import { signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { insertBot, insertUsageEvent } from '../support/usage-factories.js';

/**
 * GET /api/user/usage-forecast (docs/product.md#spend-forecast) on ledger rows with chosen times
 * and the app's usage clock pinned; the figures are worked out by hand in the comments (the rule
 * itself is unit-tested in spend-forecast.spec).
 */
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
afterEach(() => {
  jest.restoreAllMocks();
});

const DAY_MS = 24 * 60 * 60 * 1000;

describe('GET /api/user/usage-forecast', () => {
  it("forecasts the account's and each bot's period end against the spend alert and the budgets", async () => {
    const { agent, user } = await signedInAgent(t);
    const other = await signedInAgent(t);
    const shop = await insertBot(t, user.id, { name: 'Shop helper', usageLimitDollars: 25 });
    const quiet = await insertBot(t, user.id, { name: 'Quiet' });
    const theirs = await insertBot(t, other.user.id, { name: 'Theirs' });
    // The shop bot spends a dollar a day, at noon, for the 28 days before the 13th.
    for (let at = Date.parse('2026-10-16T12:00:00Z'); at < Date.parse('2026-11-13T00:00:00Z'); at += DAY_MS) {
      await insertUsageEvent(t, { ownerId: user.id, botId: shop, priceCents: 100, totalTokens: 10, at: new Date(at) });
      await insertUsageEvent(t, {
        ownerId: other.user.id,
        botId: theirs,
        priceCents: 500,
        totalTokens: 10,
        at: new Date(at),
      });
    }
    jest.spyOn(t.app.get(UsageClock), 'now').mockReturnValue(new Date('2026-11-13T00:00:00Z'));

    const response = await agent.get('/api/user/usage-forecast');
    expect(response.status).toBe(200);
    // The period began on the 3rd: 10 days at 100 spent; 20 days (the 13th to 2 December) to go.
    // The account's $20 spend alert is reached after 10 more days (the 22nd), the bot's $25
    // budget after 15 (the 27th).
    expect(response.body).toEqual({
      account: {
        periodEnd: '2026-12-02',
        spentCents: 1000,
        forecastCents: 3000,
        budgetCents: 2000,
        budgetReachedOn: '2026-11-22',
      },
      bots: [
        {
          botId: shop,
          botName: 'Shop helper',
          periodEnd: '2026-12-02',
          spentCents: 1000,
          forecastCents: 3000,
          budgetCents: 2500,
          budgetReachedOn: '2026-11-27',
        },
        {
          botId: quiet,
          botName: 'Quiet',
          periodEnd: '2026-12-02',
          spentCents: 0,
          forecastCents: 0,
          budgetCents: null,
          budgetReachedOn: null,
        },
      ],
    });

    // The other owner sees only theirs: 500 a day.
    const theirsForecast = await other.agent.get('/api/user/usage-forecast');
    expect(theirsForecast.body.account).toMatchObject({ spentCents: 5000, forecastCents: 15000 });
    expect(theirsForecast.body.bots).toEqual([expect.objectContaining({ botId: theirs })]);
  });

  it('is for signed-in owners only', async () => {
    expect((await t.http().get('/api/user/usage-forecast')).status).toBe(401);
  });
});
