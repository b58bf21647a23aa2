import { BILLING_PERIOD_START_DAY, USAGE_HISTORY_DAYS } from './constants.js';

/**
 * Billing periods run from the 3rd of a month, 00:00 UTC, to the next 3rd. These helpers are
 * pure (the clock is a parameter) so every rule about periods is testable without waiting.
 */
export function periodStartFor(at: Date): Date {
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth();
  const startThisMonth = Date.UTC(y, m, BILLING_PERIOD_START_DAY);
  return new Date(at.getTime() >= startThisMonth ? startThisMonth : Date.UTC(y, m - 1, BILLING_PERIOD_START_DAY));
}

export function nextPeriodStart(at: Date): Date {
  const start = periodStartFor(at);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, BILLING_PERIOD_START_DAY));
}

/** `YYYY-MM-DD` of a UTC instant, as stored in `usage_events.period_start`. */
export function isoDate(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The last N calendar days (UTC) ending today, oldest first, as `YYYY-MM-DD`. */
export function lastDays(now: Date, count = USAGE_HISTORY_DAYS): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: count }, (_, i) => isoDate(new Date(today - (count - 1 - i) * 86_400_000)));
}
