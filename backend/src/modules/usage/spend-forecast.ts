import { isoDate, nextPeriodStart, periodStartFor } from '../../common/billing-period.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Weeks of history the weekday weights come from (docs/product.md#spend-forecast). */
export const FORECAST_HISTORY_DAYS = 28;
/** Below this much elapsed weight (in average days) the period's own pace says too little. */
const MIN_ELAPSED_WEIGHT = 0.5;

export interface SpendForecastInput {
  now: Date;
  /**
   * Cents spent per UTC day (`YYYY-MM-DD`), from FORECAST_HISTORY_DAYS before today to today;
   * days missing spent nothing.
   */
  dailyCents: ReadonlyMap<string, number>;
  /** The budget the forecast is held against, in cents; null: none. */
  budgetCents: number | null;
}

export interface SpendForecast {
  /** The billing period's last day (UTC), included. */
  periodEnd: string;
  /** Spent in the period so far. */
  spentCents: number;
  /** Spent by the period's end at this pace. */
  forecastCents: number;
  /** The day the budget is (or was) reached at this pace; null when it is not, or there is none. */
  budgetReachedOn: string | null;
}

const dayStart = (at: Date) => Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
/** Monday 0 … Sunday 6 of a UTC day start. */
const weekday = (dayMs: number) => (new Date(dayMs).getUTCDay() + 6) % 7;

/**
 * The billing period's spend at its end, at the period-to-date pace with each weekday weighted
 * as it was over the last four weeks (a shop busy on Mondays and quiet on Sundays is forecast
 * so), and the day a budget is reached. Pure: the clock and the spend are parameters.
 *
 * The pace is cents per "average day": what the period spent so far over the weight of the time
 * elapsed (full days, and the part of today gone). Early in a period, before half an average
 * day's weight has passed, the last four weeks' average is the pace instead; with no history
 * either, nothing more is forecast than what was spent.
 */
export function forecastSpend({ now, dailyCents, budgetCents }: SpendForecastInput): SpendForecast {
  const today = dayStart(now);
  const periodStart = periodStartFor(now).getTime();
  const periodEnd = nextPeriodStart(now).getTime();
  const spentOn = (dayMs: number) => dailyCents.get(isoDate(new Date(dayMs))) ?? 0;

  const weekdayTotals = new Array<number>(7).fill(0);
  let historyTotal = 0;
  for (let day = today - FORECAST_HISTORY_DAYS * DAY_MS; day < today; day += DAY_MS) {
    weekdayTotals[weekday(day)] += spentOn(day);
    historyTotal += spentOn(day);
  }
  // Each weekday appears 4 times in 28 days: its weight is its share against an average day.
  const weights = weekdayTotals.map((total) => (historyTotal === 0 ? 1 : (total * 7) / historyTotal));
  const weightOf = (dayMs: number) => weights[weekday(dayMs)];

  let spentCents = 0;
  let elapsedWeight = 0;
  for (let day = periodStart; day < today; day += DAY_MS) {
    spentCents += spentOn(day);
    elapsedWeight += weightOf(day);
  }
  spentCents += spentOn(today);
  const todayGone = (now.getTime() - today) / DAY_MS;
  elapsedWeight += todayGone * weightOf(today);

  const pace =
    elapsedWeight >= MIN_ELAPSED_WEIGHT
      ? spentCents / elapsedWeight
      : historyTotal > 0
        ? historyTotal / FORECAST_HISTORY_DAYS
        : 0;

  let running = spentCents;
  let budgetReachedOn: string | null =
    budgetCents !== null && budgetCents > 0 && spentCents >= budgetCents ? isoDate(new Date(today)) : null;
  for (let day = today; day < periodEnd; day += DAY_MS) {
    running += pace * weightOf(day) * (day === today ? 1 - todayGone : 1);
    if (budgetReachedOn === null && budgetCents !== null && budgetCents > 0 && running >= budgetCents) {
      budgetReachedOn = isoDate(new Date(day));
    }
  }
  return {
    periodEnd: isoDate(new Date(periodEnd - DAY_MS)),
    spentCents,
    forecastCents: Math.round(running),
    budgetReachedOn,
  };
}
