/**
 * A bot's knowledge sources (docs/product.md#knowledge-sources): what the sources API returns
 * and accepts, shared by the server and the dashboard.
 */

export const SOURCE_KINDS = ['file', 'website', 'text'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];
export const SOURCE_STATUSES = ['processing', 'ready', 'failed'] as const;
export type SourceStatus = (typeof SOURCE_STATUSES)[number];
/** What a file source's bytes are, decided from its content when it was uploaded. */
export const SOURCE_FORMATS = ['pdf', 'docx', 'txt', 'md', 'html', 'csv'] as const;
export type SourceFormat = (typeof SOURCE_FORMATS)[number];
/** How often a website source is read again by itself. */
export const REFRESH_SCHEDULES = ['off', 'daily', 'weekly'] as const;
export type RefreshSchedule = (typeof REFRESH_SCHEDULES)[number];

/** A written answer's name and text, as POST /api/bots/{id}/sources/text accepts them. */
export const SOURCE_TEXT_LIMITS = { nameMaxChars: 200, textMaxChars: 100_000 } as const;
/** One file source at most this big (like the reference document). */
export const SOURCE_FILE_MAX_BYTES = 10 * 1024 * 1024;
/** A website source: how many pages a crawl reads when the owner does not say, and at most. */
export const WEBSITE_MAX_PAGES = { default: 50, max: 500 } as const;

/** One thing a bot answers from, as GET /api/bots/{id}/sources lists it. */
export interface SourceResponse {
  id: number;
  kind: SourceKind;
  /** A file's name, a website's host or a written answer's title. */
  name: string;
  status: SourceStatus;
  /** Why it failed, a sentence to show as is; null otherwise. */
  error: string | null;
  /** A PDF's pages or a website's crawled pages; null when the source has none. */
  pages: number | null;
  chunks: number;
  bytes: number;
  url: string | null;
  /** A website: how often it is read again by itself; null for other kinds. */
  refreshSchedule: RefreshSchedule | null;
  /** A website: when a crawl last read it (null before the first one finished). */
  lastRefreshedAt: string | null;
  /** A website: when the schedule reads it next (null: schedule off, or a crawl under way). */
  nextRefreshAt: string | null;
  /** A sentence about a ready source the owner should know (its crawl stopped at the quota, its last refresh failed). */
  notice: string | null;
  /** An owner's correction of an answer (a written answer that answers `question` first). */
  correction: boolean;
  /** A correction: the visitor question it answers; null for other sources. */
  question: string | null;
  /**
   * With an embeddings model configured (OPENAI_EMBEDDING_MODEL): how many of the source's
   * `chunks` passages have their vector yet (computed after the source is ready; until then it
   * answers by full-text search alone). Null without an embeddings model.
   */
  embedded: number | null;
  createdAt: string;
  updatedAt: string;
}
