import { SOURCE_FILE_MAX_BYTES, SOURCE_TEXT_LIMITS, WEBSITE_MAX_PAGES } from '@botsmith/contract';
import type { RefreshSchedule } from '../../api/types';
import { formatDate, formatDateTime } from '../../format/dateTime';

/** The server's limits on sources (docs/product.md#knowledge-sources), checked here before sending. */
export const KNOWLEDGE_LIMITS = {
  fileMaxBytes: SOURCE_FILE_MAX_BYTES,
  maxPagesDefault: WEBSITE_MAX_PAGES.default,
  maxPagesMax: WEBSITE_MAX_PAGES.max,
  nameMaxChars: SOURCE_TEXT_LIMITS.nameMaxChars,
  textMaxChars: SOURCE_TEXT_LIMITS.textMaxChars,
} as const;

/** What the file drop zone accepts: by type and, since browsers often leave the type empty, by extension. */
export const KNOWLEDGE_FILE_TYPES: Record<string, string[]> = {
  'application/pdf': ['.pdf'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['.docx'],
  'text/plain': ['.txt'],
  'text/markdown': ['.md', '.markdown'],
  'text/html': ['.html', '.htm'],
  'text/csv': ['.csv'],
};

/** How often the list is read again while a source is being read or crawled. */
export const POLL_MS = 2000;

/** "820 B", "12 KB", "1.4 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  const mb = bytes / (1024 * 1024);
  return `${mb < 10 ? mb.toFixed(1) : Math.round(mb)} MB`;
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * The facts under a source's name: size, pages and passages, whichever it has, and with hybrid
 * search configured (`embedded` not null) how many passages can be found by meaning yet: their
 * vectors are computed after the source is ready.
 */
export function sourceFacts(source: {
  kind: string;
  bytes: number;
  pages: number | null;
  chunks: number;
  status: string;
  embedded: number | null;
}): string[] {
  const facts: string[] = [];
  if (source.bytes > 0) facts.push(formatBytes(source.bytes));
  if (source.pages !== null) facts.push(plural(source.pages, 'page', 'pages'));
  if (source.status === 'ready') facts.push(plural(source.chunks, 'passage', 'passages'));
  if (source.status === 'ready' && source.embedded !== null && source.chunks > 0) {
    facts.push(
      source.embedded >= source.chunks
        ? 'searchable by meaning'
        : `${source.embedded.toLocaleString('en-US')} of ${source.chunks.toLocaleString('en-US')} searchable by meaning`,
    );
  }
  return facts;
}

/** The owner's choices for how often a website is read again by itself; weekly unless chosen. */
export const REFRESH_CHOICES: { value: RefreshSchedule; label: string }[] = [
  { value: 'weekly', label: 'Weekly' },
  { value: 'daily', label: 'Daily' },
  { value: 'off', label: 'Never' },
];
export const DEFAULT_REFRESH_SCHEDULE: RefreshSchedule = 'weekly';

/** "Nov 30, 2026", in the owner's time zone. */
export const formatDay = (iso: string) => formatDate(iso);

/** "Nov 23, 2026, 10:00 AM", in the owner's time zone. */
export const formatMoment = (iso: string) => formatDateTime(iso);

/** A website's refresh facts: when it is read next by itself (or that it is not), and when it was last read. */
export function refreshFacts(source: {
  refreshSchedule: RefreshSchedule | null;
  lastRefreshedAt: string | null;
  nextRefreshAt: string | null;
}): string[] {
  const facts: string[] = [];
  if (source.refreshSchedule === 'off') facts.push('Not refreshed automatically');
  else if (source.nextRefreshAt) facts.push(`Next refresh: ${formatDay(source.nextRefreshAt)}`);
  if (source.lastRefreshedAt) facts.push(`Last refreshed: ${formatMoment(source.lastRefreshedAt)}`);
  return facts;
}
