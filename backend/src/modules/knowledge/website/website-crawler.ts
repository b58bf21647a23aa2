import { WEBSITE_MAX_PAGES } from '@botsmith/contract';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable } from '@nestjs/common';
import { CRAWL_ROBOTS_LIMITS } from '../../../common/constants.js';
import { PageReader, UnreadableFileError, type FileTextLimits } from '../extraction/file-text.js';
import { addressRefusal, hostnameRefusal, STANDARD_PORTS } from '../../../common/outbound/address-policy.js';
import { CrawlError } from './crawl-error.js';
import { looksLikeFile, normaliseUrl, siteKey } from './crawl-urls.js';
import {
  AddressNotAllowedError,
  createGuardedAgents,
  type Connector,
  type Resolver,
} from '../../../common/outbound/guarded-agent.js';
import type { ExtractedPage } from './html-text.mjs';
import { FetchError, PageFetcher, type FetchFailure, type FetchResponse } from './page-fetcher.js';
import { robotsAllow, type RobotsRules } from './robots.mjs';
import type { Sitemap } from './sitemap.mjs';

/**
 * Reads a website into pages of text for a bot's knowledge.
 *
 *   const result = await crawler.crawl('https://example.com/', { maxPages: 50, signal, previous });
 *   result.pages     CrawledPage[]: at most maxPages, one per URL, in crawl order
 *   result.skipped   { url, reason, status? }[]: what was seen and left out, and why
 *   result.stoppedBy null when the site was read to the end, else what stopped it early
 *
 * Discovery: the site's sitemaps (those robots.txt names, else /sitemap.xml, index files
 * followed) when they list pages on the site; otherwise the links of the pages, breadth first
 * from the start URL. Only the start URL's host (and port) is crawled, over http or https; when
 * the start URL itself redirects to another host (example.com → www.example.com), the crawl
 * moves to that host. robots.txt is honoured for our user agent, and so are its Crawl-delay
 * and `<meta name="robots">` noindex/nofollow. A robots.txt past CRAWL_ROBOTS_LIMITS (500 KB,
 * 2,000 rules for us) cannot be honoured, so the site is not crawled (ROBOTS_TOO_LARGE); URLs
 * longer than its `maxUrlChars` are not followed.
 *
 * Refresh: pass what was stored as `previous` (keyed by page URL). Pages stored before are
 * asked for conditionally (If-None-Match / If-Modified-Since) and visited even when no link
 * leads to them any more. A page comes back `unchanged: true` (without text) when the server
 * answers 304 or its text hashes as before (an unchanged page's `url` is always a key of
 * `previous`); only `unchanged: false` pages need re-indexing.
 * A previous URL absent from `pages` is gone from the site (or, for a site crawled by its
 * sitemap, from the sitemap), provided `stoppedBy` is null.
 *
 * Room: with `maxTextBytes`, the crawl keeps pages only while their text (UTF-8 bytes; an
 * unchanged page counts what `previous` says it held) fits, and stops at the first page that
 * does not (`stoppedBy: 'quota'`; QUOTA_REACHED when not even the start page fits).
 *
 * Errors: a CrawlError (code + owner-facing sentence, `status` 400/422) when the crawl cannot
 * start: a malformed address, an address on a private network, a site that cannot be reached,
 * a start URL robots.txt forbids, or no readable page at all. CRAWL_ABORTED when `signal` fires.
 * A name that resolves to a private address is "cannot be reached", as a name that does not
 * resolve: the answer must not tell an owner which names exist inside our network.
 * Problems with single pages after the start are reported in `skipped`, never thrown.
 *
 * Parsing: each page's HTML, each sitemap and robots.txt are parsed in a child process
 * (PageReader, extraction/file-text.ts) within PAGE_EXTRACTION's time and memory, so a hostile
 * file never holds the event loop; a page past them is skipped as 'too_complex', a sitemap past
 * them is not read. Only matching a URL against robots.txt rules runs here, bounded as above.
 *
 * Network safety: every connection, including each redirect hop, goes through agents that
 * resolve the name, refuse private/loopback/link-local/metadata addresses (unless
 * `allowPrivate`) and connect to the address they checked; only ports 80 and 443 are used
 * unless `allowPrivate`.
 */

export const DEFAULT_MAX_PAGES = WEBSITE_MAX_PAGES.default;
export const MAX_PAGES_LIMIT = WEBSITE_MAX_PAGES.max;

export interface PreviousPage {
  contentHash: string;
  etag?: string | null;
  lastModified?: string | null;
  /** UTF-8 bytes of the page's text when it was stored. */
  bytes?: number;
}

interface PageBase {
  /** The page's URL: normalised, after redirects, its canonical URL where it names one on the site. */
  url: string;
  /** sha256 (hex) of the title and text: equal hashes mean nothing to re-index. */
  contentHash: string;
  etag: string | null;
  lastModified: string | null;
  /** UTF-8 bytes of the page's text (for an unchanged page answered 304: what `previous` said). */
  bytes: number;
}

export interface ChangedPage extends PageBase {
  unchanged: false;
  title: string;
  text: string;
}

export interface UnchangedPage extends PageBase {
  unchanged: true;
}

export type CrawledPage = ChangedPage | UnchangedPage;

export type SkipReason =
  | 'robots_disallowed'
  | 'noindex'
  | 'not_html'
  | 'http_error'
  | 'empty'
  | 'duplicate'
  | 'redirected_off_site'
  /** The page's HTML needed more time or memory to parse than PAGE_EXTRACTION allows. */
  | 'too_complex'
  /** A redirect led to a URL longer than CRAWL_ROBOTS_LIMITS.maxUrlChars. */
  | 'url_too_long'
  | FetchFailure;

export interface SkippedUrl {
  url: string;
  reason: SkipReason;
  /** The HTTP status, for http_error. */
  status?: number;
}

export interface CrawlResult {
  pages: CrawledPage[];
  skipped: SkippedUrl[];
  discovery: 'sitemap' | 'links';
  /**
   * Null when every page found was visited; otherwise the limit that ended the crawl first
   * ('requests': the cap on requests or on remembered URLs, set by maxPages).
   */
  stoppedBy: null | 'maxPages' | 'timeout' | 'requests' | 'quota';
}

export interface CrawlOptions {
  /** 1 to 500; 50 when absent. */
  maxPages?: number;
  signal?: AbortSignal;
  previous?: ReadonlyMap<string, PreviousPage>;
  /** The most page text (UTF-8 bytes, all pages together) to keep; no limit when absent. */
  maxTextBytes?: number;
}

export interface WebsiteCrawlerSettings {
  /** CRAWL_ALLOW_PRIVATE: private, loopback and link-local addresses and any port may be crawled. */
  allowPrivate: boolean;
  /** Sent with every request; its product token (before the "/") is what robots.txt rules name. */
  userAgent: string;
  requestTimeoutMs?: number;
  crawlTimeoutMs?: number;
  maxPageBytes?: number;
  maxRedirects?: number;
  /** Requests in flight at once on the site. */
  concurrency?: number;
  /** The longest robots.txt Crawl-delay obeyed; a longer one is cut to this. */
  maxCrawlDelayMs?: number;
  /** Time and memory for parsing one page in the child process; PAGE_EXTRACTION when absent. */
  pageReadLimits?: FileTextLimits;
  /** Tests only: ports besides 80 and 443 that may be used while private addresses are refused. */
  allowPorts?: number[];
  /** Tests only: the certificate authorities trusted instead of the system's. */
  tlsCa?: string;
  /** Tests only: the name resolver and the socket opener behind the address check. */
  resolve?: Resolver;
  connect?: Connector;
}

export const WEBSITE_CRAWLER_SETTINGS = Symbol('WEBSITE_CRAWLER_SETTINGS');

const DEFAULTS = {
  requestTimeoutMs: 15_000,
  crawlTimeoutMs: 10 * 60_000,
  maxPageBytes: 2 * 1024 * 1024,
  maxRedirects: 5,
  concurrency: 2,
  maxCrawlDelayMs: 10_000,
};

/** Sitemap files read per crawl (index files included), and URLs taken from them. */
const MAX_SITEMAP_FILES = 20;
const MAX_SITEMAP_URLS = 10_000;
/** URLs remembered for the queue: a site of endless generated links cannot grow it without bound. */
const MAX_QUEUED_URLS = 20_000;
const MAX_SKIPPED_REPORTED = 1_000;

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

@Injectable()
export class WebsiteCrawler {
  private readonly settings: Required<
    Omit<WebsiteCrawlerSettings, 'resolve' | 'connect' | 'allowPorts' | 'tlsCa' | 'pageReadLimits'>
  > &
    Pick<WebsiteCrawlerSettings, 'resolve' | 'connect' | 'allowPorts' | 'tlsCa' | 'pageReadLimits'>;

  constructor(@Inject(WEBSITE_CRAWLER_SETTINGS) settings: WebsiteCrawlerSettings) {
    this.settings = { ...DEFAULTS, ...settings };
  }

  async crawl(startUrl: string, options: CrawlOptions = {}): Promise<CrawlResult> {
    const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
    if (!Number.isInteger(maxPages) || maxPages < 1 || maxPages > MAX_PAGES_LIMIT) {
      throw new RangeError(`maxPages must be a whole number from 1 to ${MAX_PAGES_LIMIT}`);
    }
    const start = this.checkStartUrl(startUrl);
    const run = new CrawlRun(this.settings, start, maxPages, options);
    return run.execute();
  }

  /** The start URL's own faults, found before any request is made. */
  private checkStartUrl(raw: string): string {
    const trimmed = raw.trim();
    let url: URL;
    try {
      url = new URL(trimmed);
    } catch {
      throw new CrawlError('URL_INVALID');
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !/^https?:\/\//i.test(trimmed)) {
      throw new CrawlError('URL_INVALID');
    }
    if (url.username !== '' || url.password !== '') {
      throw new CrawlError('URL_INVALID', 'Remove the user name and password from the address.');
    }
    const rule = { allowPrivate: this.settings.allowPrivate };
    const extraPorts = (this.settings.allowPorts ?? []).map(String);
    if (!rule.allowPrivate && !STANDARD_PORTS.has(url.port) && !extraPorts.includes(url.port)) {
      throw new CrawlError('URL_NOT_ALLOWED', 'Only addresses on the standard web ports (80 and 443) can be crawled.');
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const literal = addressRefusal(host, rule);
    const isLiteral = literal !== 'not an IP address';
    if ((isLiteral && literal !== null) || (!isLiteral && hostnameRefusal(host, rule) !== null)) {
      throw new CrawlError('URL_NOT_ALLOWED');
    }
    const normalised = normaliseUrl(url.href);
    if (!normalised) throw new CrawlError('URL_INVALID');
    return normalised;
  }
}

type Robots = RobotsRules;

/** The state of one crawl: queue, seen URLs, results, limits. */
class CrawlRun {
  private readonly fetcher: PageFetcher;
  private readonly pageReader: PageReader;
  private readonly agents;
  private readonly signal: AbortSignal;
  private readonly deadline: AbortSignal;
  private readonly robotsToken: string;
  private readonly robotsByOrigin = new Map<string, Promise<Robots | null>>();
  private site: string;
  private origin: string;
  private readonly queue: string[] = [];
  private readonly seen = new Set<string>();
  private readonly hashes = new Set<string>();
  private readonly pages: CrawledPage[] = [];
  private readonly skipped: SkippedUrl[] = [];
  private requests = 0;
  /** UTF-8 bytes of the kept pages' text, and whether a page did not fit in `maxTextBytes`. */
  private textBytes = 0;
  private quotaReached = false;
  /** Links were dropped because the queue was full: the site was not read to its end. */
  private queueOverflowed = false;
  private readonly maxRequests: number;
  private concurrency: number;
  private gapMs = 0;
  private nextRequestAt = 0;

  constructor(
    private readonly settings: WebsiteCrawler['settings'],
    private readonly start: string,
    private readonly maxPages: number,
    private readonly options: CrawlOptions,
  ) {
    this.site = siteKey(start);
    this.origin = new URL(start).origin;
    this.deadline = AbortSignal.timeout(settings.crawlTimeoutMs);
    this.signal = AbortSignal.any(options.signal ? [options.signal, this.deadline] : [this.deadline]);
    this.concurrency = settings.concurrency;
    this.agents = createGuardedAgents(
      {
        allowPrivate: settings.allowPrivate,
        resolve: settings.resolve,
        connect: settings.connect,
        connectTimeoutMs: settings.requestTimeoutMs,
      },
      settings.concurrency,
      settings.tlsCa,
    );
    this.fetcher = new PageFetcher(this.agents, {
      userAgent: settings.userAgent,
      requestTimeoutMs: settings.requestTimeoutMs,
      maxBodyBytes: settings.maxPageBytes,
      maxRedirects: settings.maxRedirects,
      allowPrivate: settings.allowPrivate,
      allowPorts: (settings.allowPorts ?? []).map(String),
    });
    this.robotsToken = settings.userAgent.split('/')[0].trim();
    this.pageReader = new PageReader(settings.pageReadLimits);
    // Pages that failed or were not HTML do not count towards maxPages, but they cost requests.
    this.maxRequests = maxPages * 4 + 20;
  }

  async execute(): Promise<CrawlResult> {
    try {
      const robots = await this.robotsFor(new URL(this.start).origin, true);
      if (robots && !robotsAllows(robots, this.start)) throw new CrawlError('ROBOTS_DISALLOWED');
      this.applyCrawlDelay(robots);
      this.seen.add(this.start);
      const startLinks = await this.visit(this.start, true);
      const fromSitemaps = await this.sitemapUrls();
      const discovery = fromSitemaps.length > 0 ? 'sitemap' : 'links';
      for (const url of discovery === 'sitemap' ? fromSitemaps : startLinks) this.enqueue(url);
      // A refresh revisits what it stored before, even pages no link leads to any more.
      for (const url of this.options.previous?.keys() ?? []) {
        if (discovery === 'links') this.enqueue(url);
      }
      const stoppedBy = await this.drain(discovery);
      if (this.options.signal?.aborted) throw new CrawlError('CRAWL_ABORTED');
      if (this.pages.length === 0) throw new CrawlError(this.quotaReached ? 'QUOTA_REACHED' : 'NO_READABLE_PAGES');
      return { pages: this.pages, skipped: this.skipped, discovery, stoppedBy };
    } catch (error) {
      if (this.options.signal?.aborted) throw new CrawlError('CRAWL_ABORTED', undefined, { cause: error });
      // The crawl's own deadline passed before the start page answered.
      if (this.deadline.aborted && (!(error instanceof CrawlError) || error.code === 'CRAWL_ABORTED')) {
        throw new CrawlError('SITE_UNREACHABLE', undefined, { cause: error });
      }
      throw error;
    } finally {
      this.agents.destroy();
      this.pageReader.close();
    }
  }

  /** Visits queued URLs, `concurrency` at a time, until the queue or a limit runs out. */
  private async drain(discovery: 'sitemap' | 'links'): Promise<CrawlResult['stoppedBy']> {
    const inFlight = new Set<Promise<void>>();
    // A task never rejects (a stray rejection would go unhandled); a fault stops the crawl here.
    let fault: unknown = null;
    for (;;) {
      if (this.signal.aborted || fault !== null || this.quotaReached) break;
      while (
        inFlight.size < this.concurrency &&
        this.queue.length > 0 &&
        this.pages.length + inFlight.size < this.maxPages &&
        this.requests < this.maxRequests
      ) {
        const url = this.queue.shift() as string;
        const task: Promise<void> = this.visit(url, false).then(
          (links) => {
            if (discovery === 'links') for (const link of links) this.enqueue(link);
          },
          (error: unknown) => {
            if (!this.signal.aborted) fault ??= error;
          },
        );
        const tracked = task.finally(() => inFlight.delete(tracked));
        inFlight.add(tracked);
      }
      if (inFlight.size === 0) break;
      await Promise.race(inFlight);
    }
    await Promise.allSettled(inFlight);
    if (fault !== null) throw fault instanceof Error ? fault : new Error('A crawl task failed', { cause: fault });
    if (this.deadline.aborted) return 'timeout';
    if (this.quotaReached) return 'quota';
    if (this.pages.length >= this.maxPages && this.queue.length > 0) return 'maxPages';
    if (this.queue.length > 0 || this.queueOverflowed) return 'requests';
    return null;
  }

  private enqueue(href: string): void {
    const url = normaliseUrl(href);
    if (!url || url.length > CRAWL_ROBOTS_LIMITS.maxUrlChars || this.seen.has(url) || siteKey(url) !== this.site) {
      return;
    }
    if (this.seen.size >= MAX_QUEUED_URLS) {
      this.queueOverflowed = true;
      return;
    }
    this.seen.add(url);
    this.queue.push(url);
  }

  /**
   * Fetches one page and records it as a page or a skip. Returns the page's links (on the site
   * or not: the caller filters). The start page's failures are the crawl's: thrown.
   */
  private async visit(url: string, isStart: boolean): Promise<string[]> {
    if (!isStart && !(await this.allowedByRobots(url))) return this.skip(url, 'robots_disallowed');
    if (looksLikeFile(url)) return this.skip(url, 'not_html');
    const previous = this.options.previous?.get(url);
    let response: FetchResponse;
    try {
      await this.takeTurn();
      this.requests++;
      response = await this.fetcher.get({
        url,
        headers: conditionalHeaders(previous),
        wantBody: (type) => HTML_TYPES.has(type) || type === '',
        signal: this.signal,
      });
    } catch (error) {
      if (!(error instanceof FetchError)) throw error;
      if (isStart) throw startFailure(error);
      return this.skip(url, error.failure === 'aborted' && this.deadline.aborted ? 'timeout' : error.failure);
    }

    let pageUrl = normaliseUrl(response.url) ?? url;
    if (siteKey(pageUrl) !== this.site) {
      if (!isStart) return this.skip(url, 'redirected_off_site');
      // The site lives on the host the start URL sends us to.
      this.site = siteKey(pageUrl);
      this.origin = new URL(pageUrl).origin;
      const robots = await this.robotsFor(new URL(pageUrl).origin, true);
      if (robots && !robotsAllows(robots, pageUrl)) throw new CrawlError('ROBOTS_DISALLOWED');
      this.applyCrawlDelay(robots);
    }
    if (pageUrl !== url) {
      if (pageUrl.length > CRAWL_ROBOTS_LIMITS.maxUrlChars) return this.skip(url, 'url_too_long');
      if (this.seen.has(pageUrl)) return this.skip(url, 'duplicate');
      if (!(await this.allowedByRobots(pageUrl))) return this.skip(url, 'robots_disallowed');
      this.seen.add(pageUrl);
    }

    // Unchanged is said of the address the page was stored under (never of a redirect's target).
    if (response.status === 304 && previous && pageUrl === url) {
      return this.keep({
        url: pageUrl,
        unchanged: true,
        contentHash: previous.contentHash,
        etag: header(response, 'etag') ?? previous.etag ?? null,
        lastModified: header(response, 'last-modified') ?? previous.lastModified ?? null,
        bytes: previous.bytes ?? 0,
      });
    }
    if (response.status < 200 || response.status >= 300) {
      return this.skip(url, 'http_error', response.status);
    }
    const html = response.body && decodeHtml(response.body, header(response, 'content-type') ?? '');
    if (html === null || (response.contentType === '' && !/^\s*<(!doctype html|html|head|body)/i.test(html))) {
      return this.skip(url, 'not_html');
    }

    let page: ExtractedPage;
    try {
      // In a child process with a time limit: some HTML takes the parser seconds to minutes.
      page = await this.pageReader.read(html, pageUrl, this.signal);
    } catch (error) {
      if (!(error instanceof UnreadableFileError)) throw error;
      return this.skip(url, 'too_complex');
    }
    const links = page.nofollow ? [] : page.links;
    if (page.noindex) return this.skip(pageUrl, 'noindex', undefined, links);
    const canonical = page.canonical && normaliseUrl(page.canonical);
    if (
      canonical &&
      canonical !== pageUrl &&
      canonical.length <= CRAWL_ROBOTS_LIMITS.maxUrlChars &&
      siteKey(canonical) === this.site
    ) {
      if (this.seen.has(canonical)) return this.skip(pageUrl, 'duplicate', undefined, links);
      if (await this.allowedByRobots(canonical)) {
        this.seen.add(canonical);
        pageUrl = canonical;
      }
    }
    if (page.text === '') return this.skip(pageUrl, 'empty', undefined, links);
    const contentHash = createHash('sha256').update(`${page.title}\n${page.text}`).digest('hex');
    if (this.hashes.has(contentHash)) return this.skip(pageUrl, 'duplicate', undefined, links);
    const before = this.options.previous?.get(pageUrl);
    const validators = {
      etag: header(response, 'etag'),
      lastModified: header(response, 'last-modified'),
      bytes: Buffer.byteLength(page.text, 'utf8'),
    };
    const stored =
      before?.contentHash === contentHash
        ? { url: pageUrl, unchanged: true as const, contentHash, ...validators }
        : { url: pageUrl, unchanged: false as const, title: page.title, text: page.text, contentHash, ...validators };
    this.keep(stored);
    return links;
  }

  private keep(page: CrawledPage): string[] {
    // Two URLs can end on one page (redirects, canonicals) between the check and the answer.
    if (this.pages.length >= this.maxPages || this.pages.some((kept) => kept.url === page.url)) return [];
    const room = this.options.maxTextBytes;
    if (this.quotaReached || (room !== undefined && this.textBytes + page.bytes > room)) {
      this.quotaReached = true;
      return [];
    }
    this.textBytes += page.bytes;
    this.hashes.add(page.contentHash);
    this.pages.push(page);
    return [];
  }

  private skip(url: string, reason: SkipReason, status?: number, links: string[] = []): string[] {
    if (this.skipped.length < MAX_SKIPPED_REPORTED) {
      this.skipped.push(status === undefined ? { url, reason } : { url, reason, status });
    }
    return links;
  }

  /**
   * Waits for this request's turn under the site's Crawl-delay. The next turn counts from when
   * this one really starts, not from when it was due: a sleep that overran on a busy machine
   * would otherwise let the following request go at once, two requests back to back.
   */
  private async takeTurn(): Promise<void> {
    if (this.gapMs === 0) return;
    const wait = this.nextRequestAt - Date.now();
    if (wait > 0) await sleep(wait, undefined, { signal: this.signal });
    this.nextRequestAt = Date.now() + this.gapMs;
  }

  private applyCrawlDelay(robots: Robots | null): void {
    const seconds = robots?.crawlDelay;
    if (seconds === undefined || seconds === null || !(seconds > 0)) return;
    this.gapMs = Math.min(seconds * 1000, this.settings.maxCrawlDelayMs);
    this.concurrency = 1;
  }

  private async allowedByRobots(url: string): Promise<boolean> {
    if (url.length > CRAWL_ROBOTS_LIMITS.maxUrlChars) return false;
    const robots = await this.robotsFor(new URL(url).origin, false);
    return robots !== null && robotsAllows(robots, url);
  }

  /**
   * robots.txt of one origin, fetched once. A missing file (4xx) allows everything; a server
   * error means "assume everything is disallowed" (robots.txt's own rule), and so does a file
   * past CRAWL_ROBOTS_LIMITS (too long to honour, or too hard to read within the reader's
   * limits). For the start origin, a failure to connect or a file past the limits is the crawl's
   * failure; for another origin (http next to https), it disallows that origin (null).
   */
  private robotsFor(origin: string, required: boolean): Promise<Robots | null> {
    let robots = this.robotsByOrigin.get(origin);
    if (!robots) {
      robots = this.loadRobots(origin, required);
      this.robotsByOrigin.set(origin, robots);
    }
    return robots;
  }

  private async loadRobots(origin: string, required: boolean): Promise<Robots | null> {
    const url = `${origin}/robots.txt`;
    let response: FetchResponse;
    try {
      this.requests++;
      response = await this.fetcher.get({
        url,
        wantBody: () => true,
        signal: this.signal,
        maxBodyBytes: CRAWL_ROBOTS_LIMITS.maxBytes,
      });
    } catch (error) {
      if (!(error instanceof FetchError)) throw error;
      if (!required) return null;
      throw error.failure === 'too_large' ? new CrawlError('ROBOTS_TOO_LARGE') : startFailure(error);
    }
    if (response.status >= 500) {
      if (required) throw new CrawlError('SITE_UNREACHABLE');
      return null;
    }
    const found = response.status >= 200 && response.status < 300 && response.body && response.body.length > 0;
    if (!found) return { tooManyRules: false, rules: [], crawlDelay: null, sitemaps: [] };
    let robots: Robots;
    try {
      robots = await this.pageReader.readRobots(
        response.body as Buffer,
        this.robotsToken,
        CRAWL_ROBOTS_LIMITS.maxRules,
        this.signal,
      );
    } catch (error) {
      if (!(error instanceof UnreadableFileError)) throw error;
      robots = { tooManyRules: true, rules: [], crawlDelay: null, sitemaps: [] };
    }
    if (!robots.tooManyRules) return robots;
    if (required) throw new CrawlError('ROBOTS_TOO_LARGE');
    return null;
  }

  /** Page URLs on the site from its sitemaps; none when it has none or they cannot be read. */
  private async sitemapUrls(): Promise<string[]> {
    const origin = this.origin;
    const robots = await this.robotsFor(origin, false);
    const declared = (robots?.sitemaps ?? []).map((url) => normaliseUrl(url)).filter(isString);
    const files = declared.filter((url) => siteKey(url) === this.site);
    if (files.length === 0) files.push(`${origin}/sitemap.xml`);
    const pages: string[] = [];
    const read = new Set<string>();
    while (files.length > 0 && read.size < MAX_SITEMAP_FILES && pages.length < MAX_SITEMAP_URLS) {
      const file = files.shift() as string;
      if (read.has(file)) continue;
      read.add(file);
      const sitemap = await this.readSitemap(file);
      if (!sitemap) continue;
      for (const location of sitemap.locations) {
        const url = normaliseUrl(location, file);
        if (!url || url.length > CRAWL_ROBOTS_LIMITS.maxUrlChars || siteKey(url) !== this.site) continue;
        (sitemap.kind === 'index' ? files : pages).push(url);
      }
    }
    return pages.slice(0, MAX_SITEMAP_URLS);
  }

  /** One sitemap file, unpacked and parsed in the page reader; null when it cannot be read. */
  private async readSitemap(url: string): Promise<Sitemap | null> {
    try {
      if (!(await this.allowedByRobots(url))) return null;
      await this.takeTurn();
      this.requests++;
      const response = await this.fetcher.get({ url, wantBody: () => true, signal: this.signal });
      if (response.status < 200 || response.status >= 300 || !response.body) return null;
      return await this.pageReader.readSitemap(response.body, this.settings.maxPageBytes, this.signal);
    } catch (error) {
      if (this.signal.aborted || (error instanceof FetchError && error.failure === 'aborted')) throw error;
      return null;
    }
  }
}

/** Whether robots.txt lets us fetch `url` (on the origin `robots` came from). */
function robotsAllows(robots: Robots, url: string): boolean {
  const { pathname, search } = new URL(url);
  return robotsAllow(robots, pathname + search);
}

function startFailure(error: FetchError): CrawlError {
  switch (error.failure) {
    case 'address_not_allowed':
      // A name the resolver answered with a private address reads as one that does not resolve.
      // Addresses written in the URL, refused names (localhost, metadata) and ports are refused
      // as such: they tell nothing about our network.
      if (error.cause instanceof AddressNotAllowedError && error.cause.resolvedFromName) {
        return new CrawlError('SITE_UNREACHABLE', undefined, { cause: error });
      }
      return new CrawlError('URL_NOT_ALLOWED', undefined, { cause: error });
    case 'aborted':
      return new CrawlError('CRAWL_ABORTED', undefined, { cause: error });
    case 'bad_redirect':
    case 'timeout':
    case 'too_large':
    case 'too_many_redirects':
    case 'unreachable':
      return new CrawlError('SITE_UNREACHABLE', undefined, { cause: error });
  }
}

function conditionalHeaders(previous: PreviousPage | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (previous?.etag) headers['if-none-match'] = previous.etag;
  if (previous?.lastModified) headers['if-modified-since'] = previous.lastModified;
  return headers;
}

function header(response: FetchResponse, name: string): string | null {
  const value = response.headers[name];
  return typeof value === 'string' && value !== '' ? value : null;
}

/** Decodes by the charset the headers or the page's own `<meta charset>` name; UTF-8 otherwise. */
function decodeHtml(body: Buffer, contentType: string): string {
  const head = body.subarray(0, 2048).toString('latin1');
  const charset =
    /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType)?.[1] ??
    /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1] ??
    'utf-8';
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

function isString(value: string | null): value is string {
  return value !== null;
}
