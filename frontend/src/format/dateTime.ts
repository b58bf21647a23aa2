/**
 * One date and time formatter for the whole dashboard (docs/product.md#dates-and-times): every date or
 * time an owner sees is written in their browser's locale and time zone by these functions, so the
 * inbox, leads, webhooks, sources, usage, billing and settings all read alike.
 *
 * `locale` and `timeZone` are for tests only; the dashboard passes neither (the browser's own).
 */
export interface FormatOptions {
  locale?: string;
  timeZone?: string;
  now?: Date;
}

function parse(value: string | Date | null | undefined): Date | null {
  if (value == null || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const cache = new Map<string, Intl.DateTimeFormat>();
function formatter(kind: string, options: Intl.DateTimeFormatOptions, o: FormatOptions): Intl.DateTimeFormat {
  const key = `${kind}|${o.locale ?? ''}|${o.timeZone ?? ''}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(o.locale, { ...options, ...(o.timeZone ? { timeZone: o.timeZone } : {}) });
    cache.set(key, f);
  }
  return f;
}

const DAY: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' };
const DAY_MONTH: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric' };
const TIME: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };
const MOMENT: Intl.DateTimeFormatOptions = { ...DAY, ...TIME };

/** A calendar day: "Nov 30, 2026" (en-US), "30. Nov. 2026" (de-DE). Empty for a missing or bad date. */
export function formatDate(value: string | Date | null | undefined, o: FormatOptions = {}): string {
  const date = parse(value);
  return date ? formatter('day', DAY, o).format(date) : '';
}

/** A moment: "Nov 30, 2026, 2:05 PM" (en-US), "30. Nov. 2026, 14:05" (de-DE). */
export function formatDateTime(value: string | Date | null | undefined, o: FormatOptions = {}): string {
  const date = parse(value);
  return date ? formatter('moment', MOMENT, o).format(date) : '';
}

/** A time of day: "2:05 PM" (en-US), "14:05" (de-DE). */
export function formatTime(value: string | Date | null | undefined, o: FormatOptions = {}): string {
  const date = parse(value);
  return date ? formatter('time', TIME, o).format(date) : '';
}

/** The parts of a date in the formatter's time zone, to compare days. */
function dayKey(date: Date, o: FormatOptions): string {
  return formatter('key', { year: 'numeric', month: '2-digit', day: '2-digit' }, o).format(date);
}
function yearOf(date: Date, o: FormatOptions): string {
  return formatter('year', { year: 'numeric' }, o).format(date);
}

/** For a list: the time today, the day and time this year, the day before: "2:05 PM", "Nov 20, 2:05 PM", "Nov 20, 2025". */
export function formatRecent(value: string | Date | null | undefined, o: FormatOptions = {}): string {
  const date = parse(value);
  if (!date) return '';
  const now = o.now ?? new Date();
  if (dayKey(date, o) === dayKey(now, o)) return formatTime(date, o);
  if (yearOf(date, o) === yearOf(now, o)) {
    return `${formatter('daymonth', DAY_MONTH, o).format(date)}, ${formatTime(date, o)}`;
  }
  return formatDate(date, o);
}

/** A UTC calendar day (a billing period's edge), in the owner's locale: "Nov 3, 2026". */
export function formatUtcDate(value: string | Date | null | undefined, o: FormatOptions = {}): string {
  return formatDate(value, { ...o, timeZone: 'UTC' });
}
