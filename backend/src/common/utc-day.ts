/**
 * The UTC calendar day the daily quotas count in (docs/product.md#quotas). Pure: the clock is a
 * parameter, so every daily rule is testable without waiting for midnight.
 */
export function startOfUtcDay(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}

/** The next 00:00 UTC after `at`. */
export function nextUtcDay(at: Date): Date {
  return new Date(startOfUtcDay(at).getTime() + 86_400_000);
}

/** Whole seconds from `at` to the next 00:00 UTC (at least 1): a daily quota's Retry-After. */
export function secondsToNextUtcDay(at: Date): number {
  return Math.max(1, Math.ceil((nextUtcDay(at).getTime() - at.getTime()) / 1000));
}
