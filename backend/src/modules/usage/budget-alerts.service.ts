import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { BackgroundTasks } from '../../common/background-tasks.js';
import { isoDate, periodStartFor } from '../../common/billing-period.js';
import { ACCOUNT_SPEND_ALERT_STEP_PERCENT, BOT_BUDGET_ALERT_STEPS, MODEL_CATALOGUE } from '../../common/constants.js';
import { describeError } from '../../common/error-description.js';
import { MailService } from '../mail/mail.service.js';
import { WebhooksService } from '../webhooks/webhooks.service.js';
import { nextMessageFits } from './budget.js';
import { BudgetAlertsRepository } from './budget-alerts.repository.js';
import { FORECAST_HISTORY_DAYS, forecastSpend } from './spend-forecast.js';
import { UsageRepository } from './usage.repository.js';
import { historyWindow } from './usage.service.js';
import { RecentlyUsedMap } from '../../common/recently-used-map.js';

/**
 * The bot budget steps a period spend has passed. 50 and 80 are plain shares of the budget; 100
 * is "reached": the next message would not fit any more (the bot now refuses and hides), which
 * is what an owner needs to hear, and what a budget that is not a multiple of the price shows
 * (the rule is usage/budget.ts's, the one the chat's reservation and the public face use).
 */
export function botBudgetSteps(spentCents: number, budgetCents: number, nextPriceCents: number): number[] {
  if (budgetCents <= 0) return [];
  return BOT_BUDGET_ALERT_STEPS.filter((step) =>
    step === 100
      ? !nextMessageFits({ budgetCents, spentCents, priceCents: nextPriceCents })
      : spentCents * 100 >= step * budgetCents,
  );
}

/** The highest 50 % step of the owner's threshold the account's period spend has passed; 0 for none. */
export function accountSpendStep(spentCents: number, thresholdCents: number): number {
  if (thresholdCents <= 0) return 0;
  const step = ACCOUNT_SPEND_ALERT_STEP_PERCENT;
  return Math.floor((spentCents * 100) / (thresholdCents * step)) * step;
}

/** How many owners' and bots' periods one instance remembers the claimed alert steps of; past it, the oldest go. */
export const CLAIMED_STEPS_REMEMBERED = 10_000;

/**
 * Budget alerts by e-mail: to the owner when a bot's period spend passes 50 %, 80 % and 100 % of
 * its monthly budget, and when the account's period spend passes each 50 % step of the owner's
 * spend alert (Settings). Each alert goes out once per billing period, across every instance:
 * a row in `budget_alerts` is claimed first, and only the claimer mails.
 *
 * Checked after a charge has committed (and after a budget refusal, which a lowered budget can
 * cause without any charge), in the background: an alert never delays or fails an answer, and a
 * failed check is logged. Several steps passed at once give one mail, for the highest. The account
 * alert claims only the highest step passed (there is no upper end to list).
 */
@Injectable()
export class BudgetAlertsService implements OnApplicationShutdown {
  private readonly logger = new Logger('BudgetAlerts');
  private readonly background = new BackgroundTasks(this.logger);
  /** The checks running, by owner and bot, with the spends to check after them, by period. */
  private readonly running = new Map<string, Map<string, Date>>();
  /**
   * The steps known to be claimed already, by owner, bot (or the account) and period. A claim is
   * never undone, so a check that passes only these steps needs no claim statement: once a bot or
   * an account is past a step, every later check of the period would otherwise make one for nothing.
   */
  private readonly claimedSteps = new RecentlyUsedMap<string, Set<number>>(CLAIMED_STEPS_REMEMBERED);

  constructor(
    private readonly repository: BudgetAlertsRepository,
    private readonly mail: MailService,
    private readonly webhooks: WebhooksService,
    private readonly usage: UsageRepository,
  ) {}

  /**
   * Starts the check for the bot's and the owner's spend as of `at`; returns at once, never throws.
   * Checks of one owner and bot run one at a time on an instance: spends that arrive while one
   * runs are checked once more after it, as of the latest of them (per billing period), so a busy
   * bot costs one check per round instead of one per message, and the last spend is always
   * checked after it committed (docs/decisions/0016-chat-path-cost.md).
   */
  afterSpend(ownerId: number, botId: number, at: Date = new Date()): void {
    const key = `${ownerId}:${botId}`;
    const running = this.running.get(key);
    const period = isoDate(periodStartFor(at));
    if (running) {
      const queued = running.get(period);
      if (!queued || queued < at) running.set(period, at);
      return;
    }
    const queue = new Map<string, Date>([[period, at]]);
    this.running.set(key, queue);
    this.background.start(() => this.drain(key, ownerId, botId, queue), `Budget alert checks for bot ${botId} stopped`);
  }

  /** Checks the queued spends of one owner and bot until none is left. */
  private async drain(key: string, ownerId: number, botId: number, queue: Map<string, Date>): Promise<void> {
    try {
      while (queue.size > 0) {
        const [period, at] = queue.entries().next().value as [string, Date];
        queue.delete(period);
        await this.check(ownerId, botId, at).catch((error: unknown) => {
          this.logger.error(`Budget alert check for bot ${botId} failed: ${describeError(error)}`);
        });
      }
    } finally {
      this.running.delete(key);
    }
  }

  /** Resolves when every check started so far has finished (tests, shutdown). */
  settled(): Promise<void> {
    return this.background.settled();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.settled();
  }

  /** The day the bot's budget is reached at its pace as of `at`; null when not this period. */
  private async budgetReachedOn(botId: number, budgetCents: number, at: Date): Promise<string | null> {
    const { window } = historyWindow(at, FORECAST_HISTORY_DAYS + 1);
    const days = await this.usage.dailyBotUsage(botId, window);
    const dailyCents = new Map(days.map((day) => [day.day, day.cents]));
    return forecastSpend({ now: at, dailyCents, budgetCents }).budgetReachedOn;
  }

  private async check(ownerId: number, botId: number, at: Date): Promise<void> {
    const periodStart = periodStartFor(at);
    const spend = await this.repository.snapshot(ownerId, botId, periodStart);
    // The house pays for its own demo bot; nobody reads the system account's mail.
    if (!spend || spend.isSystem) return;

    const bot = spend.bot;
    if (bot && bot.usageLimitDollars > 0) {
      const price = (MODEL_CATALOGUE[bot.model] ?? MODEL_CATALOGUE['gpt-3.5-turbo']).priceCents;
      const passed = botBudgetSteps(bot.spendCents, bot.usageLimitDollars * 100, price);
      const claimed = await this.claimNew(ownerId, botId, periodStart, passed);
      if (claimed.length > 0) {
        const percent = Math.max(...claimed);
        this.mail.sendBotBudgetAlert(spend.email, {
          botName: bot.name,
          percent,
          spentCents: bot.spendCents,
          budgetDollars: bot.usageLimitDollars,
          // Below 100 %, when the budget will run out at this pace (docs/product.md#spend-forecast).
          budgetReachedOn: percent < 100 ? await this.budgetReachedOn(botId, bot.usageLimitDollars * 100, at) : null,
        });
        // Claimed once per bot and period, like the mail, so the event goes out once too.
        if (claimed.includes(100)) {
          this.webhooks.notify(ownerId, 'bot.budget_reached', {
            botId,
            botName: bot.name,
            budgetDollars: bot.usageLimitDollars,
            spentCents: bot.spendCents,
            periodStart: isoDate(periodStart),
          });
        }
      }
    }

    const step = accountSpendStep(spend.accountSpendCents, spend.spendAlertDollars * 100);
    if (step > 0) {
      const claimed = await this.claimNew(ownerId, null, periodStart, [step]);
      if (claimed.length > 0) {
        this.mail.sendAccountSpendAlert(spend.email, {
          percent: step,
          spentCents: spend.accountSpendCents,
          thresholdDollars: spend.spendAlertDollars,
        });
      }
    }
  }

  /** Claims the steps not known to be claimed already (BudgetAlertsRepository.claim), and remembers them all. */
  private async claimNew(ownerId: number, botId: number | null, periodStart: Date, steps: number[]): Promise<number[]> {
    const key = `${ownerId}:${botId ?? 'account'}:${isoDate(periodStart)}`;
    const known = this.claimedSteps.get(key) ?? new Set<number>();
    const unknown = steps.filter((step) => !known.has(step));
    if (unknown.length === 0) return [];
    const claimed = await this.repository.claim(ownerId, botId, periodStart, unknown);
    // Claimed now, here or by another instance before: either way, claimed for the period.
    for (const step of unknown) known.add(step);
    this.claimedSteps.set(key, known);
    return claimed;
  }
}
