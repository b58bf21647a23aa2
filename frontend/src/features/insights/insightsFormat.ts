import {
  ANALYTICS_LIMITS,
  CONVERSATION_OUTCOMES,
  type AnalyticsGroupBy,
  type AnalyticsResponse,
  type ConversationOutcome,
} from '@botsmith/contract';
import { formatDayLabel } from '../usage/usageFormat';

/** How each outcome reads on the screen, in the chart's legend and in the CSV's header. */
export const OUTCOME_LABELS: Record<ConversationOutcome, string> = {
  resolved: 'Resolved',
  handed_off: 'Handed off',
  unanswered: 'Unanswered',
  abandoned: 'Abandoned',
  rated_down: 'Rated down',
};

/**
 * The outcomes' colours (green 800, blue 800, orange 900, grey 700, red 800 of Material's palette):
 * each has a contrast of at least 3.7:1 on white, above the 3:1 a chart's marks need.
 */
export const OUTCOME_COLORS: Record<ConversationOutcome, string> = {
  resolved: '#2e7d32',
  handed_off: '#1565c0',
  unanswered: '#e65100',
  abandoned: '#616161',
  rated_down: '#c62828',
};

export const RANGE_PRESETS = ['7', '30', '90'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];
export type RangeChoice = RangePreset | 'custom';

/** A period of whole days, both ends included, as YYYY-MM-DD. */
export interface DayRange {
  from: string;
  to: string;
}

const DAY_MS = 86_400_000;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The browser's calendar day of `now` as YYYY-MM-DD (the browser's time zone is the one sent). */
export function localDay(now: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** A YYYY-MM-DD day as days since 1970-01-01, or null when it is no real day. */
function dayNumber(day: string): number | null {
  const match = ISO_DAY.exec(day);
  if (!match) return null;
  const time = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  const date = new Date(time);
  if (date.getUTCMonth() !== Number(match[2]) - 1 || date.getUTCDate() !== Number(match[3])) return null;
  return time / DAY_MS;
}

function dayOf(number: number): string {
  return new Date(number * DAY_MS).toISOString().slice(0, 10);
}

/** The last `days` days, today (in the browser's time zone) included. */
export function presetRange(days: number, now: Date): DayRange {
  const to = localDay(now);
  return { from: dayOf((dayNumber(to) ?? 0) - days + 1), to };
}

/** Days in a range, both ends included; null when a day is not real or the range is reversed. */
export function rangeLength(range: DayRange): number | null {
  const from = dayNumber(range.from);
  const to = dayNumber(range.to);
  if (from === null || to === null || to < from) return null;
  return to - from + 1;
}

/** Why a custom range cannot be asked for, or null when it can. */
export function rangeProblem(range: DayRange): string | null {
  const length = rangeLength(range);
  if (length === null) return 'Choose a start date on or before the end date.';
  if (length > ANALYTICS_LIMITS.rangeDaysMax) return `Choose at most ${ANALYTICS_LIMITS.rangeDaysMax} days.`;
  return null;
}

/** The period of the same length just before `range`, to compare with. */
export function previousRange(range: DayRange): DayRange {
  const from = dayNumber(range.from) ?? 0;
  const length = rangeLength(range) ?? 1;
  return { from: dayOf(from - length), to: dayOf(from - 1) };
}

/** "Nov 21" for a day; "Week of Nov 16" for a week's Monday. */
export function periodLabel(start: string, groupBy: AnalyticsGroupBy): string {
  return groupBy === 'week' ? `Week of ${formatDayLabel(start)}` : formatDayLabel(start);
}

const MINUS = '\u2212';

const dollarsOf = (cents: number) => (Math.abs(cents) / 100).toFixed(2);

/** A share (0 to 1) as a whole percentage: 0.625 -> "63%". */
export function formatRate(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}

/** Cents (to a hundredth) as dollars: 4.5 -> "$0.05"; null (nothing to divide by) -> "—". */
export function formatCents(cents: number | null): string {
  return cents === null ? '—' : `$${dollarsOf(cents)}`;
}

/** Which way of a change is good news; null: neither (shown without colour). */
export type Better = 'up' | 'down' | null;

export interface Delta {
  /** "+4 pts", "−$0.02", "+3", "No change". */
  text: string;
  tone: 'good' | 'bad' | 'neutral';
}

function tone(change: number, better: Better): Delta['tone'] {
  if (change === 0 || better === null) return 'neutral';
  return change > 0 === (better === 'up') ? 'good' : 'bad';
}

const signed = (value: number, text: string) => (value > 0 ? `+${text}` : value < 0 ? `${MINUS}${text}` : text);

/** The change of a rate, in percentage points (rounded to whole points). */
export function rateDelta(current: number, previous: number, better: Better): Delta {
  const points = Math.round(current * 100) - Math.round(previous * 100);
  return {
    text: points === 0 ? 'No change' : signed(points, `${Math.abs(points)} pts`),
    tone: tone(points, better),
  };
}

/** The change of a count. */
export function countDelta(current: number, previous: number, better: Better): Delta {
  const change = current - previous;
  return { text: change === 0 ? 'No change' : signed(change, String(Math.abs(change))), tone: tone(change, better) };
}

/** The change of an amount in cents, in dollars to the cent; null when either side has none. */
export function centsDelta(current: number | null, previous: number | null, better: Better): Delta | null {
  if (current === null || previous === null) return null;
  const change = Math.round(current) - Math.round(previous);
  return { text: change === 0 ? 'No change' : signed(change, `$${dollarsOf(change)}`), tone: tone(change, better) };
}

/** A CSV field, quoted when it must be. */
function field(value: string | number): string {
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The series as CSV: one row per day or week with its conversations, each outcome and the spend in dollars. */
export function seriesCsv(response: AnalyticsResponse): string {
  const header = ['Start', 'Conversations', ...CONVERSATION_OUTCOMES.map((o) => OUTCOME_LABELS[o]), 'Spend (USD)'];
  const rows = response.series.map((period) => [
    period.start,
    period.conversations,
    ...CONVERSATION_OUTCOMES.map((outcome) => period.outcomes[outcome]),
    (period.spendCents / 100).toFixed(2),
  ]);
  return [header, ...rows].map((row) => row.map(field).join(',')).join('\r\n') + '\r\n';
}

/** The CSV's file name: insights_2026-10-29_2026-11-27_day.csv (with the bot's id when one is chosen). */
export function csvFileName(response: AnalyticsResponse): string {
  const bot = response.botId === null ? '' : `_bot-${response.botId}`;
  return `insights${bot}_${response.from}_${response.to}_${response.groupBy}.csv`;
}

export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

/** "Tue 10:00 – 3 conversations": one cell of the busiest hours. */
export function hourCellLabel(weekday: number, hour: number, count: number): string {
  const hh = String(hour).padStart(2, '0');
  return `${WEEKDAYS[weekday]} ${hh}:00 – ${count} ${count === 1 ? 'conversation' : 'conversations'}`;
}
