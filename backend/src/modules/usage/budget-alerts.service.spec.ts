import { accountSpendStep, botBudgetSteps, BudgetAlertsService } from './budget-alerts.service.js';
import { nextPeriodStart } from '../../common/billing-period.js';
import type { BudgetAlertsRepository } from './budget-alerts.repository.js';
import type { MailService } from '../mail/mail.service.js';
import type { WebhooksService } from '../webhooks/webhooks.service.js';
import type { TimeWindow, UsageRepository } from './usage.repository.js';

describe('botBudgetSteps', () => {
  it('passes 50 and 80 at those shares of the budget, and 100 once the next message would not fit', () => {
    expect(botBudgetSteps(49, 100, 3)).toEqual([]);
    expect(botBudgetSteps(50, 100, 3)).toEqual([50]);
    expect(botBudgetSteps(79, 100, 3)).toEqual([50]);
    expect(botBudgetSteps(80, 100, 3)).toEqual([50, 80]);
    expect(botBudgetSteps(97, 100, 3)).toEqual([50, 80]);
    // 99 of 100 cents with a 3-cent model: the bot refuses from here, so the budget is reached.
    expect(botBudgetSteps(98, 100, 3)).toEqual([50, 80, 100]);
    expect(botBudgetSteps(100, 100, 5)).toEqual([50, 80, 100]);
  });

  it('has no steps without a budget', () => {
    expect(botBudgetSteps(10_000, 0, 3)).toEqual([]);
  });
});

describe('accountSpendStep', () => {
  it('is the highest 50 % step of the threshold passed', () => {
    expect(accountSpendStep(999, 2000)).toBe(0);
    expect(accountSpendStep(1000, 2000)).toBe(50);
    expect(accountSpendStep(1999, 2000)).toBe(50);
    expect(accountSpendStep(2000, 2000)).toBe(100);
    expect(accountSpendStep(6100, 2000)).toBe(300);
  });

  it('is 0 when the owner turned the alert off', () => {
    expect(accountSpendStep(1_000_000, 0)).toBe(0);
  });
});

describe('BudgetAlertsService.afterSpend', () => {
  /** A repository whose snapshots wait until released, recording the spends they were asked about. */
  function slowRepository() {
    const asked: Array<{ ownerId: number; botId: number; periodStart: string }> = [];
    const waiting: Array<() => void> = [];
    const repository = {
      snapshot: (ownerId: number, botId: number, periodStart: Date) => {
        asked.push({ ownerId, botId, periodStart: periodStart.toISOString().slice(0, 10) });
        return new Promise((resolve) => waiting.push(() => resolve(null)));
      },
      claim: () => Promise.resolve([]),
    } as unknown as BudgetAlertsRepository;
    const releaseAll = () => waiting.splice(0).forEach((release) => release());
    return { repository, asked, releaseAll };
  }
  const service = (repository: BudgetAlertsRepository) =>
    new BudgetAlertsService(repository, {} as MailService, {} as WebhooksService, {} as UsageRepository);

  it('checks spends that arrive during a check once more after it, never in parallel, and never drops the last', async () => {
    const { repository, asked, releaseAll } = slowRepository();
    const alerts = service(repository);
    const at = new Date('2026-03-10T12:00:00Z');
    alerts.afterSpend(1, 2, at);
    for (let i = 1; i <= 5; i++) alerts.afterSpend(1, 2, new Date(at.getTime() + i * 1000));
    alerts.afterSpend(1, 3, at); // another bot: its own check
    await new Promise((resolve) => setImmediate(resolve));
    expect(asked).toHaveLength(2);
    releaseAll();
    await new Promise((resolve) => setImmediate(resolve));
    // The five spends during the first check: one more check, as of the latest.
    expect(asked).toHaveLength(3);
    expect(asked[2]).toMatchObject({ ownerId: 1, botId: 2 });
    releaseAll();
    await alerts.settled();
    expect(asked).toHaveLength(3);
    // Nothing running any more: the next spend starts a check of its own.
    alerts.afterSpend(1, 2, at);
    await new Promise((resolve) => setImmediate(resolve));
    expect(asked).toHaveLength(4);
    releaseAll();
    await alerts.settled();
  });

  it('checks each billing period a queued spend belongs to', async () => {
    const { repository, asked, releaseAll } = slowRepository();
    const alerts = service(repository);
    const boundary = nextPeriodStart(new Date('2026-03-10T12:00:00Z')).getTime();
    alerts.afterSpend(1, 2, new Date(boundary - 1000));
    alerts.afterSpend(1, 2, new Date(boundary - 500));
    alerts.afterSpend(1, 2, new Date(boundary + 1000));
    for (let round = 0; round < 4; round++) {
      await new Promise((resolve) => setImmediate(resolve));
      releaseAll();
    }
    await alerts.settled();
    expect(asked).toHaveLength(3);
    expect(new Set(asked.map((a) => a.periodStart)).size).toBe(2);
  });
});

describe('BudgetAlertsService: the forecast in a bot budget alert', () => {
  /** A bot at `spentCents` of a $1 budget, 8 cents a day for the four weeks before the 13th. */
  function setup(spentCents: number, claimed: number[]) {
    const sent: unknown[] = [];
    const days = new Map<string, number>();
    for (let at = Date.parse('2026-10-16T00:00:00Z'); at < Date.parse('2026-11-13T00:00:00Z'); at += 86_400_000) {
      days.set(new Date(at).toISOString().slice(0, 10), 8);
    }
    const asked: Array<[number, string, string]> = [];
    const repository = {
      snapshot: () =>
        Promise.resolve({
          email: 'owner@example.org',
          isSystem: false,
          spendAlertDollars: 0,
          accountSpendCents: spentCents,
          bot: { name: 'Shop helper', usageLimitDollars: 1, model: 'gpt-3.5-turbo', spendCents: spentCents },
        }),
      claim: () => Promise.resolve(claimed),
    } as unknown as BudgetAlertsRepository;
    const usage = {
      dailyBotUsage: (botId: number, window: TimeWindow) => {
        asked.push([botId, window.from.toISOString(), window.to.toISOString()]);
        return Promise.resolve([...days].map(([day, cents]) => ({ day, messages: 1, tokens: 0, cents })));
      },
    } as unknown as UsageRepository;
    const mail = { sendBotBudgetAlert: (_to: string, alert: unknown) => sent.push(alert) } as unknown as MailService;
    const events: string[] = [];
    const webhooks = { notify: (_owner: number, event: string) => events.push(event) } as unknown as WebhooksService;
    return { alerts: new BudgetAlertsService(repository, mail, webhooks, usage), sent, asked, events };
  }

  it('names the day the budget runs out at this pace in the 50 % and 80 % mails', async () => {
    const { alerts, sent, asked } = setup(80, [50, 80]);
    alerts.afterSpend(1, 2, new Date('2026-11-13T00:00:00Z'));
    await alerts.settled();
    // 80 of 100 cents after 10 days at 8 a day: 88 on the 13th, 96 on the 14th, 104 on the 15th.
    expect(sent).toEqual([expect.objectContaining({ percent: 80, budgetReachedOn: '2026-11-15' })]);
    expect(asked).toEqual([[2, '2026-10-16T00:00:00.000Z', '2026-11-14T00:00:00.000Z']]);
  });

  it('says nothing of the pace once the budget is reached', async () => {
    const { alerts, sent, asked, events } = setup(99, [50, 80, 100]);
    alerts.afterSpend(1, 2, new Date('2026-11-13T00:00:00Z'));
    await alerts.settled();
    expect(sent).toEqual([expect.objectContaining({ percent: 100, budgetReachedOn: null })]);
    expect(asked).toEqual([]);
    expect(events).toEqual(['bot.budget_reached']);
  });
});

describe('BudgetAlertsService: claims', () => {
  it('claims only the steps not known to be claimed: a bot or account past a step makes no claim for it again', async () => {
    let spentCents = 60;
    const claims: Array<[number | null, string, number[]]> = [];
    const sent: unknown[] = [];
    const repository = {
      snapshot: () =>
        Promise.resolve({
          email: 'owner@example.org',
          isSystem: false,
          spendAlertDollars: 1,
          accountSpendCents: spentCents,
          bot: { name: 'Shop helper', usageLimitDollars: 1, model: 'gpt-3.5-turbo', spendCents: spentCents },
        }),
      // Every step is new to the database except the account's 50 %, which another instance claimed.
      claim: (_owner: number, botId: number | null, periodStart: Date, steps: number[]) => {
        claims.push([botId, periodStart.toISOString().slice(0, 10), steps]);
        return Promise.resolve(botId === null ? steps.filter((step) => step !== 50) : steps);
      },
    } as unknown as BudgetAlertsRepository;
    const mail = {
      sendBotBudgetAlert: (_to: string, alert: { percent: number }) => sent.push(['bot', alert.percent]),
      sendAccountSpendAlert: (_to: string, alert: { percent: number }) => sent.push(['account', alert.percent]),
    } as unknown as MailService;
    const usage = { dailyBotUsage: () => Promise.resolve([]) } as unknown as UsageRepository;
    const alerts = new BudgetAlertsService(repository, mail, {} as WebhooksService, usage);
    const check = async (at: string) => {
      alerts.afterSpend(1, 2, new Date(at));
      await alerts.settled();
    };

    await check('2026-11-13T10:00:00Z');
    expect(claims).toEqual([
      [2, '2026-11-03', [50]],
      [null, '2026-11-03', [50]],
    ]);
    expect(sent).toEqual([['bot', 50]]); // the account's 50 % was another instance's to mail

    await check('2026-11-13T10:01:00Z'); // still past 50 % only: nothing to claim
    expect(claims).toHaveLength(2);

    spentCents = 85;
    await check('2026-11-13T10:02:00Z');
    expect(claims.slice(2)).toEqual([[2, '2026-11-03', [80]]]); // the account is still at its 50 % step
    expect(sent).toEqual([
      ['bot', 50],
      ['bot', 80],
    ]);

    await check('2026-12-04T10:00:00Z'); // a new period: its steps are claimed anew
    expect(claims.slice(3)).toEqual([
      [2, '2026-12-03', [50, 80]],
      [null, '2026-12-03', [50]],
    ]);
  });
});
