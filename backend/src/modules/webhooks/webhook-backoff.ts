/** Waits after the 1st, 2nd, … failed attempt; the last one repeats. */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000] as const;

/** How long after the event a delivery is still tried. */
export const DELIVERY_WINDOW_MS = 24 * 3_600_000;

/**
 * When to try again after `attempts` failed attempts (the latest at `failedAt`), or null to give
 * up: the next try would fall past the window that began with the event at `eventAt`.
 */
export function nextAttemptAt(attempts: number, failedAt: Date, eventAt: Date): Date | null {
  const delay = RETRY_DELAYS_MS[Math.min(Math.max(attempts, 1), RETRY_DELAYS_MS.length) - 1];
  const next = new Date(failedAt.getTime() + delay);
  return next.getTime() > eventAt.getTime() + DELIVERY_WINDOW_MS ? null : next;
}
