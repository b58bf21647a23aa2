import { ANALYTICS_LIMITS, type AnalyticsGroupBy } from '@botsmith/contract';
import { AppError } from '../../common/app-error.js';
import { isTimeZone } from '../../common/time-zone.js';

/** A period of whole days in a time zone, both ends included, as asked of GET /api/analytics. */
export interface AnalyticsPeriodQuery {
  from: string;
  to: string;
  groupBy: AnalyticsGroupBy;
  timeZone: string;
}

export const TIME_ZONE_REFUSED = 'timeZone must be an IANA time zone such as Europe/Berlin.';

const DAY_MS = 24 * 60 * 60 * 1000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Today's date (YYYY-MM-DD) in `timeZone`. */
export function todayIn(timeZone: string, now: Date): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** Days are calendar dates: their arithmetic is done at UTC midnight, whatever the time zone. */
function dayNumber(date: string, field: string): number {
  const match = DATE.exec(date);
  const ms = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : NaN;
  if (!match || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== date) {
    throw AppError.badRequest(`${field} must be a date written YYYY-MM-DD.`, 'INVALID_RANGE');
  }
  return ms / DAY_MS;
}

const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/**
 * The asked period, checked: real dates, `from` not after `to`, at most
 * ANALYTICS_LIMITS.rangeDaysMax days; the last 30 days to today (in the time zone) by default.
 */
export function resolvePeriod(
  asked: { from?: string; to?: string; groupBy?: AnalyticsGroupBy; timeZone?: string },
  now: Date,
): AnalyticsPeriodQuery {
  const timeZone = asked.timeZone ?? 'UTC';
  if (!isTimeZone(timeZone)) {
    throw AppError.badRequest(TIME_ZONE_REFUSED, 'INVALID_RANGE');
  }
  const to = asked.to ?? todayIn(timeZone, now);
  const toDay = dayNumber(to, 'to');
  const from = asked.from ?? dateOf(toDay - (ANALYTICS_LIMITS.defaultRangeDays - 1));
  const fromDay = dayNumber(from, 'from');
  if (fromDay > toDay) throw AppError.badRequest('from must not be after to.', 'INVALID_RANGE');
  if (toDay - fromDay + 1 > ANALYTICS_LIMITS.rangeDaysMax) {
    throw AppError.badRequest(`A period is at most ${ANALYTICS_LIMITS.rangeDaysMax} days.`, 'INVALID_RANGE');
  }
  return { from, to, groupBy: asked.groupBy ?? 'day', timeZone };
}

/**
 * The first day of every day or week (ISO weeks start on Monday, like PostgreSQL's
 * date_trunc('week')) from the one holding `from` to the one holding `to`, in order.
 */
export function periodStarts(period: AnalyticsPeriodQuery): string[] {
  const fromDay = dayNumber(period.from, 'from');
  const toDay = dayNumber(period.to, 'to');
  // Day 0 (1970-01-01) was a Thursday: Monday-based weekday = (day + 3) mod 7.
  const first = period.groupBy === 'week' ? fromDay - ((fromDay + 3) % 7) : fromDay;
  const step = period.groupBy === 'week' ? 7 : 1;
  const starts: string[] = [];
  for (let day = first; day <= toDay; day += step) starts.push(dateOf(day));
  return starts;
}

/**
 * Whether `timeZone` is a whole number of quarter hours from UTC throughout the period (a day
 * either side included), so its days and hours are made of whole UTC quarter hours and the
 * rollup can count them (docs/decisions/0019-analytics-at-a-million-messages.md). Every zone in
 * use is (India +05:30, Nepal +05:45, Chatham +12:45); a zone's local mean time before it took a
 * standard offset (Kathmandu until 1920, +05:41:16) is not: such a period is counted from the
 * rows themselves. The offset is read twice a day: no zone keeps an offset for less than a day.
 */
export function inQuarterHours(period: AnalyticsPeriodQuery): boolean {
  const format = new Intl.DateTimeFormat('en', { timeZone: period.timeZone, timeZoneName: 'longOffset' });
  for (let day = dayNumber(period.from, 'from') - 1; day <= dayNumber(period.to, 'to') + 1; day++) {
    for (const at of [day * DAY_MS, day * DAY_MS + DAY_MS / 2]) {
      // "GMT", "GMT+02:00", "GMT-09:30", "GMT+05:45", "GMT+00:19:32".
      const offset = format.formatToParts(at).find((part) => part.type === 'timeZoneName')?.value ?? '';
      if (!/^GMT([+-]\d{2}:(00|15|30|45))?$/.test(offset)) return false;
    }
  }
  return true;
}
