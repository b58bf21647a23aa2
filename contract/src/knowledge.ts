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
  /** The bot's reference document (POST /api/upload/update-document replaces it). */
  reference: boolean;
  /**
   * With an embeddings model configured (OPENAI_EMBEDDING_MODEL): how many of the source's
   * `chunks` passages have their vector yet (computed after the source is ready; until then it
   * answers by full-text search alone). Null without an embeddings model.
   */
  embedded: number | null;
  createdAt: string;
  updatedAt: string;
}

/** What GET /api/bots/{id}/sources/{sourceId}/pages says of one page: read with text, or read without any. */
export const SOURCE_PAGE_STATUSES = ['ready', 'no_text'] as const;
export type SourcePageStatus = (typeof SOURCE_PAGE_STATUSES)[number];

/** One page of a website source as its last crawl read it. */
export interface SourcePageResponse {
  url: string;
  title: string | null;
  status: SourcePageStatus;
  /** Passages the bot can answer from on this page. */
  chunks: number;
  bytes: number;
  /** ISO date-time: when a crawl last read it. */
  readAt: string;
}

/** A page of a website source's pages, in the order they were first read; pass nextCursor back as cursor. */
export interface SourcePagesPage {
  pages: SourcePageResponse[];
  nextCursor: string | null;
}

/** How many pages GET /api/bots/{id}/sources/{sourceId}/pages returns at once. */
export const SOURCE_PAGES_PAGE_SIZE = 50;

/** POST /api/bots/{id}/sources/text and PUT …/{sourceId}/text: a written answer or note. */
export interface TextSourceRequest {
  name: string;
  text: string;
}
/** POST /api/bots/{id}/sources/website: a site to crawl; 'weekly' when refreshSchedule is absent. */
export interface WebsiteSourceRequest {
  url: string;
  maxPages?: number;
  refreshSchedule?: RefreshSchedule;
}
/** PATCH /api/bots/{id}/sources/{sourceId}: how often a website is read again by itself. */
export interface UpdateSourceRequest {
  refreshSchedule: RefreshSchedule;
}
/** GET /api/bots/{id}/sources/{sourceId}/pages: the previous page's nextCursor. */
export interface SourcePagesQuery {
  cursor?: string;
}
