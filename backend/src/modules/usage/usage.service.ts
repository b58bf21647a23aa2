import type {
  BotUsageResponse,
  SpendForecastFigures,
  UsageForecastResponse,
  UsageHistoryResponse,
  UserUsageResponse,
} from '@botsmith/contract';
import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/app-error.js';
import { lastDays, nextPeriodStart, periodStartFor } from '../../common/billing-period.js';
import { USAGE_HISTORY_DAYS } from '../../common/constants.js';
import { UsersService } from '../users/users.service.js';
import { FORECAST_HISTORY_DAYS, forecastSpend } from './spend-forecast.js';
import { UsageClock } from './usage-clock.js';
import { UsageRepository, type DailyCountRow, type DailyUsageRow, type TimeWindow } from './usage.repository.js';

export type { BotUsageResponse, UsageForecastResponse, UsageHistoryResponse, UserUsageResponse };

const DAY_MS = 86_400_000;

/** The current billing period: [the last 3rd 00:00 UTC, the next 3rd). */
export function periodWindow(now: Date): TimeWindow {
  return { from: periodStartFor(now), to: nextPeriodStart(now) };
}

/** The history's days, and the window that covers them exactly: [first day 00:00 UTC, tomorrow 00:00 UTC). */
export function historyWindow(now: Date, days = USAGE_HISTORY_DAYS): { labels: string[]; window: TimeWindow } {
  const labels = lastDays(now, days);
  const from = new Date(`${labels[0]}T00:00:00.000Z`);
  return { labels, window: { from, to: new Date(from.getTime() + days * DAY_MS) } };
}

/** Lays the days that had usage onto the full list of days, zeros elsewhere. */
export function toHistory(
  labels: string[],
  rows: DailyUsageRow[],
  visitorRows: DailyCountRow[] = [],
): UsageHistoryResponse {
  const byDay = new Map(rows.map((row) => [row.day, row]));
  const at = (day: string) => byDay.get(day);
  const visitors = new Map(visitorRows.map((row) => [row.day, row.count]));
  return {
    labels,
    messageCounts: labels.map((day) => at(day)?.messages ?? 0),
    visitorMessages: labels.map((day) => visitors.get(day) ?? 0),
    tokensUsed: labels.map((day) => at(day)?.tokens ?? 0),
    costs: labels.map((day) => at(day)?.cents ?? 0),
  };
}

/**
 * What owners see of their spend: sums over the `usage_events` ledger (one row per answered
 * message, price in cents), for the current billing period and for the last 10 days. Every figure
 * is a sum of `price_cents` over a `created_at` window, so they agree to the cent: the history's
 * days that fall in the current period add up to no more than the period's sum, and a bot's
 * figures are a part of its owner's.
 */
@Injectable()
export class UsageService {
  constructor(
    private readonly usage: UsageRepository,
    private readonly users: UsersService,
    private readonly clock: UsageClock,
  ) {}

  async getUserUsage(ownerId: number, now: Date = this.clock.now()): Promise<UserUsageResponse> {
    const owner = await this.users.findActiveById(ownerId);
    if (!owner) throw AppError.unauthorized();
    const period = periodWindow(now);
    const [cents, notChargedAnswers, logsAvailable] = await Promise.all([
      this.usage.sumOwnerPriceCents(ownerId, period),
      this.usage.countOwnerNotCharged(ownerId, period),
      this.usage.ownerHasMessages(ownerId),
    ]);
    return {
      usageCents: cents,
      monthlyUsageCents: cents,
      creditsCents: owner.creditsCents,
      logsAvailable,
      notChargedAnswers,
    };
  }

  async getUserUsageHistory(ownerId: number, now: Date = this.clock.now()): Promise<UsageHistoryResponse> {
    const { labels, window } = historyWindow(now);
    const [answers, visitors] = await Promise.all([
      this.usage.dailyOwnerUsage(ownerId, window),
      this.usage.dailyOwnerVisitorMessages(ownerId, window),
    ]);
    return toHistory(labels, answers, visitors);
  }

  async getBotUsage(ownerId: number, botId: number, now: Date = this.clock.now()): Promise<BotUsageResponse> {
    const bot = await this.findOwnedBot(ownerId, botId);
    const period = periodWindow(now);
    const [cents, notChargedAnswers, logsAvailable] = await Promise.all([
      this.usage.sumBotPriceCents(bot.id, period),
      this.usage.countBotNotCharged(bot.id, period),
      this.usage.botHasMessages(ownerId, bot.id),
    ]);
    return { usageCents: cents, usageLimitDollars: bot.usageLimitDollars, logsAvailable, notChargedAnswers };
  }

  async getBotUsageHistory(
    ownerId: number,
    botId: number,
    now: Date = this.clock.now(),
  ): Promise<UsageHistoryResponse> {
    const bot = await this.findOwnedBot(ownerId, botId);
    const { labels, window } = historyWindow(now);
    const [answers, visitors] = await Promise.all([
      this.usage.dailyBotUsage(bot.id, window),
      this.usage.dailyBotVisitorMessages(ownerId, bot.id, window),
    ]);
    return toHistory(labels, answers, visitors);
  }

  /**
   * The account's and each bot's spend at the billing period's end at this pace
   * (docs/product.md#spend-forecast), against the account's spend alert and each bot's budget.
   */
  async getUsageForecast(ownerId: number, now: Date = this.clock.now()): Promise<UsageForecastResponse> {
    const owner = await this.users.findActiveById(ownerId);
    if (!owner) throw AppError.unauthorized();
    // From the first history day to tomorrow: the period so far lies inside (a period is at most 31 days).
    const { window } = historyWindow(now, FORECAST_HISTORY_DAYS + 1);
    const [rows, bots] = await Promise.all([
      this.usage.dailySpendByBot(ownerId, window),
      this.usage.ownerBotBudgets(ownerId),
    ]);
    const accountDays = new Map<string, number>();
    const botDays = new Map<number, Map<string, number>>();
    for (const row of rows) {
      accountDays.set(row.day, (accountDays.get(row.day) ?? 0) + row.cents);
      if (row.botId === null) continue;
      const days = botDays.get(row.botId) ?? new Map<string, number>();
      days.set(row.day, row.cents);
      botDays.set(row.botId, days);
    }
    const figures = (dailyCents: Map<string, number>, budgetCents: number | null): SpendForecastFigures => ({
      ...forecastSpend({ now, dailyCents, budgetCents }),
      budgetCents,
    });
    return {
      account: figures(accountDays, owner.spendAlertDollars > 0 ? owner.spendAlertDollars * 100 : null),
      bots: bots.map((bot) => ({
        botId: bot.id,
        botName: bot.name,
        ...figures(
          botDays.get(bot.id) ?? new Map<string, number>(),
          bot.usageLimitDollars > 0 ? bot.usageLimitDollars * 100 : null,
        ),
      })),
    };
  }

  /** Another owner's bot, or one that does not exist, is the same 404. */
  private async findOwnedBot(ownerId: number, botId: number) {
    const bot = await this.usage.findOwnedBot(ownerId, botId);
    if (!bot) throw AppError.notFound('Bot not found.', 'BOT_NOT_FOUND');
    return bot;
  }
}
