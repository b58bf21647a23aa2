import type { UsageHistory } from '../../api/types';

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

/** What the usage chart plots: messages x2, tokens /100, cost in dollars (docs/product.md#usage-figures). */
export interface UsageChartData {
  labels: string[];
  messages: number[];
  tokens: number[];
  cost: number[];
  /** The real message counts, for the tooltip. */
  messageCounts: number[];
}

export function toChartData(history: UsageHistory): UsageChartData {
  return {
    labels: history.labels.map(formatDayLabel),
    messages: history.messageCounts.map((count) => count * 2),
    tokens: history.tokensUsed.map((tokens) => tokens / 100),
    cost: history.costs.map((cents) => cents / 100),
    messageCounts: [...history.messageCounts],
  };
}

function trimmed(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2).replace(/0$/, '');
}

/** Tooltip texts: tokens are plotted in hundreds, cost in dollars. */
export function formatTokensTooltip(value: number | null): string {
  return value === null ? '' : `${trimmed(value)} (x100)`;
}

export function formatCostTooltip(value: number | null): string {
  return value === null ? '' : `$${value.toFixed(2)}`;
}

export function hasAnyUsage(history: UsageHistory): boolean {
  return history.messageCounts.some((count) => count > 0);
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
  return date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
}
