import { formatUtcDate } from '../../format/dateTime';
import type { SpendForecastFigures } from '@botsmith/contract';
import type { UsageHistoryResponse } from '../../api/types';

const dollars = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** Cents as dollars with two decimals: 1234 -> "$12.34" (docs/product.md#usage-figures). */
export function formatDollars(cents: number): string {
  return dollars.format(cents / 100);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * The API labels days as `YYYY-MM-DD` (UTC calendar days); the chart shows them as "Nov 21".
 * Parsed by hand, not with `Date`, so the browser's time zone can never shift a day.
 */
export function formatDayLabel(isoDay: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDay);
  if (!match) return isoDay;
  const month = MONTHS[Number(match[2]) - 1];
  return month ? `${month} ${Number(match[3])}` : isoDay;
}

/**
 * What the usage charts plot (docs/product.md#usage-figures): answers (what the owner pays for)
 * beside the messages visitors sent, on a count axis; the cost in dollars on an axis of its own.
 */
export interface UsageChartData {
  labels: string[];
  answers: number[];
  visitorMessages: number[];
  /** Dollars. */
  cost: number[];
  totals: { answers: number; visitorMessages: number; tokens: number; cents: number };
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

export function toChartData(history: UsageHistoryResponse): UsageChartData {
  const visitorMessages = [...history.visitorMessages];
  return {
    labels: history.labels.map(formatDayLabel),
    answers: [...history.messageCounts],
    visitorMessages,
    cost: history.costs.map((cents) => cents / 100),
    totals: {
      answers: sum(history.messageCounts),
      visitorMessages: sum(visitorMessages),
      tokens: sum(history.tokensUsed),
      cents: sum(history.costs),
    },
  };
}

/** "12 answers · 15 visitor messages · 3,400 tokens · $0.45": the ten days in one line. */
export function formatTotals(totals: UsageChartData['totals']): string {
  const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
  return [
    count(totals.answers, 'answer', 'answers'),
    count(totals.visitorMessages, 'visitor message', 'visitor messages'),
    count(totals.tokens, 'token', 'tokens'),
    formatDollars(totals.cents),
  ].join(' · ');
}

/** The cost axis and tooltip: dollars, with cents below a dollar. */
export function formatCostTooltip(value: number | null): string {
  return value === null ? '' : `$${value.toFixed(2)}`;
}

export function formatCostAxis(value: number): string {
  return value >= 1 && Number.isInteger(value) ? `$${value}` : `$${value.toFixed(2)}`;
}

export function hasAnyUsage(history: UsageHistoryResponse): boolean {
  return history.messageCounts.some((count) => count > 0) || history.visitorMessages.some((n) => n > 0);
}

/** The billing period `now` falls in: from the 3rd, 00:00 UTC, to the next 3rd (docs/product.md#billing-cycle). */
export function usagePeriod(now: Date): { start: Date; end: Date } {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const thisMonth = Date.UTC(y, m, 3);
  const startMonth = now.getTime() >= thisMonth ? m : m - 1;
  return { start: new Date(Date.UTC(y, startMonth, 3)), end: new Date(Date.UTC(y, startMonth + 1, 3)) };
}

/** "Nov 3, 2026": a UTC calendar day. */
export function formatUtcDay(date: Date): string {
  return formatUtcDate(date);
}

/** A day of the month as an ordinal: 1 -> "1st", 2 -> "2nd", 3 -> "3rd", 11 -> "11th", 24 -> "24th". */
export function ordinalDay(day: number): string {
  const teen = day % 100 >= 11 && day % 100 <= 13;
  const suffix = teen ? 'th' : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[day % 10] ?? 'th');
  return `${day}${suffix}`;
}

/** A budget in dollars, without cents when it has none: 1000 -> "$10", 1050 -> "$10.50". */
function formatBudget(cents: number): string {
  return cents % 100 === 0 ? `$${cents / 100}` : formatDollars(cents);
}

/**
 * The spend forecast as a sentence (docs/product.md#spend-forecast): when the budget is reached at
 * this pace (the bot's monthly budget, or the account's spend alert when `botName` is null), else
 * where the period's spend ends. A day already gone reads in the past tense; `today` is the UTC
 * day, YYYY-MM-DD.
 */
export function forecastSentence(figures: SpendForecastFigures, botName: string | null, today: string): string {
  const { budgetCents, budgetReachedOn, forecastCents } = figures;
  if (budgetCents !== null && budgetReachedOn !== null) {
    const day = ordinalDay(Number(budgetReachedOn.slice(8, 10)));
    const budget = formatBudget(budgetCents);
    if (budgetReachedOn < today) {
      return botName === null
        ? `Your spend passed your ${budget} alert on the ${day}.`
        : `${botName} reached its ${budget} budget on the ${day}.`;
    }
    return botName === null
      ? `At this pace, your spend reaches your ${budget} alert around the ${day}.`
      : `At this pace, ${botName} reaches its ${budget} budget around the ${day}.`;
  }
  return `At this pace, this period ends at about ${formatDollars(forecastCents)}.`;
}
