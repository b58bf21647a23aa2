import {
  CONVERSATION_FILTERS,
  QUESTION_PERIODS,
  type ConversationFilter,
  type QuestionPeriod,
} from '@botsmith/contract';
import type { ConversationQuery } from '../../api';
import { formatDateTime, formatRecent } from '../../format/dateTime';

/** Where the inbox page lives; its filters are in the address so a link can open it filtered. */
export const CONVERSATIONS_PATH = '/dashboard/conversations';

/** How long the search box waits after the last keystroke before it searches. */
export const SEARCH_DEBOUNCE_MS = 300;

export type InboxView = 'conversations' | 'questions';

/** The inbox's state as the address holds it. */
export interface InboxParams {
  view: InboxView;
  botId: number | null;
  q: string;
  /** YYYY-MM-DD (the owner's calendar days), '' when open. */
  from: string;
  to: string;
  filter: ConversationFilter;
  /** The open conversation. */
  conversationId: number | null;
  period: QuestionPeriod;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function positiveInt(text: string | null): number | null {
  if (!text || !/^\d{1,15}$/.test(text)) return null;
  const value = Number(text);
  return value > 0 ? value : null;
}

/** Reads the address; anything malformed falls back to "not narrowed". */
export function readInboxParams(search: URLSearchParams): InboxParams {
  const filter = search.get('filter');
  const period = search.get('period');
  const from = search.get('from') ?? '';
  const to = search.get('to') ?? '';
  return {
    view: search.get('view') === 'questions' ? 'questions' : 'conversations',
    botId: positiveInt(search.get('botId')),
    q: search.get('q') ?? '',
    from: DATE.test(from) ? from : '',
    to: DATE.test(to) ? to : '',
    filter: CONVERSATION_FILTERS.includes(filter as ConversationFilter) ? (filter as ConversationFilter) : 'all',
    conversationId: positiveInt(search.get('c')),
    period: QUESTION_PERIODS.includes(period as QuestionPeriod) ? (period as QuestionPeriod) : '30d',
  };
}

/** The address for `params`, leaving out what does not narrow anything. */
export function inboxSearch(params: Partial<InboxParams>): string {
  const search = new URLSearchParams();
  if (params.view === 'questions') search.set('view', 'questions');
  if (params.botId) search.set('botId', String(params.botId));
  if (params.q) search.set('q', params.q);
  if (params.from) search.set('from', params.from);
  if (params.to) search.set('to', params.to);
  if (params.filter && params.filter !== 'all') search.set('filter', params.filter);
  if (params.conversationId) search.set('c', String(params.conversationId));
  if (params.view === 'questions' && params.period && params.period !== '30d') search.set('period', params.period);
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** A link to the inbox narrowed to `params`. */
export const inboxLink = (params: Partial<InboxParams>) => `${CONVERSATIONS_PATH}${inboxSearch(params)}`;

/** The instant the calendar day `date` (YYYY-MM-DD) starts at in the owner's time zone, `days` later. */
function dayStart(date: string, days = 0): string {
  const start = new Date(`${date}T00:00:00`);
  start.setDate(start.getDate() + days);
  return start.toISOString();
}

/**
 * The API query for the list and the export. The owner picks days on their own calendar; the
 * server reads an instant `to` as "before", so the last day ends where the next one starts.
 */
export function toQuery(params: InboxParams): ConversationQuery {
  return {
    botId: params.botId ?? undefined,
    q: params.q.trim() || undefined,
    from: params.from ? dayStart(params.from) : undefined,
    to: params.to ? dayStart(params.to, 1) : undefined,
    filter: params.filter,
  };
}

/** "2:05 PM" today, "Nov 20, 2:05 PM" this year, "Nov 20, 2025" before (in the owner's locale). */
export function formatWhen(iso: string, now: Date = new Date()): string {
  // The shared formatter (src/format/dateTime.ts): the owner's locale and time zone.
  return formatRecent(iso, { now });
}

/** The full moment, for a tooltip or a transcript line. */
export function formatMomentLong(iso: string): string {
  return formatDateTime(iso);
}

/** Who the visitor is in the inbox: the name the host page gave (Botsmith.identify), else "Visitor". */
export function visitorLabel(conversation: { visitorName: string | null; leadName?: string | null }): string {
  return conversation.visitorName ?? conversation.leadName ?? 'Visitor';
}

/** The visitor's e-mail: what the host page said (identify), else what they typed in a lead. */
export function visitorEmailOf(conversation: {
  visitorEmail: string | null;
  leadEmail?: string | null;
}): string | null {
  return conversation.visitorEmail ?? conversation.leadEmail ?? null;
}

/**
 * An http(s) address, which the inbox may show as a link. The server stores only those as a
 * conversation's page; anything else (a `javascript:` URL sent before it checked) stays text.
 */
export function isWebAddress(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/**
 * A mailto: link to the address the host page gave. The local part is percent-encoded, so a `?`
 * or `&` in it (valid in an address) cannot add headers or recipients to the owner's draft.
 */
export function mailtoHref(email: string): string {
  const at = email.lastIndexOf('@');
  return `mailto:${encodeURIComponent(email.slice(0, at))}@${email.slice(at + 1)}`;
}
