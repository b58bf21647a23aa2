import { randomUUID } from 'node:crypto';
import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import { TransactionRunner, type Transaction } from '../../database/transaction.js';
import { AppError } from '../../common/app-error.js';
import { SOURCE_FILE_MAX_BYTES, SOURCE_JOB_DEFAULTS } from '../../common/constants.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { chunkPages } from './chunking.js';
import { DocumentsService } from './documents.service.js';
import { FILE_STORAGE, type FileStorage } from '../storage/file-storage.js';
import { extractText, UnreadableSourceError } from './extraction/text-extraction.js';
import { PassagesRepository, type NewPassage } from './passages.repository.js';
import { crawlAccountQuotaSentence, crawlQuotaSentence } from './quota.js';
import { PAGE_TITLE_MAX, PAGE_URL_MAX, SourcePagesRepository, type StoredPage } from './source-pages.repository.js';
import { CrawlError } from './website/crawl-error.js';
import {
  WebsiteCrawler,
  type CrawledPage,
  type CrawlResult,
  type PreviousPage,
  type SkippedUrl,
} from './website/website-crawler.js';
import { SourcesRepository, type ClaimedJob, type JobOutcome } from './sources.repository.js';
import type { JobPool, SourceJobSlots } from './source-job-slots.js';
import { describeError } from '../../common/error-description.js';

/**
 * A ready website's notice naming the pages the crawl could not parse within its limits
 * (docs/product.md#knowledge-sources): the rest of the site answers, these pages do not. Pages
 * left out on purpose (robots.txt, noindex, duplicates, other file types) are not mentioned.
 */
export function unreadPagesSentence(skipped: readonly SkippedUrl[]): string | null {
  const unread = skipped.filter((page) => page.reason === 'too_complex').map((page) => page.url);
  if (unread.length === 0) return null;
  const listed = unread.slice(0, 3).join(', ') + (unread.length > 3 ? ` and ${unread.length - 3} more` : '');
  const sentence =
    unread.length === 1
      ? `This page needs too much time or memory to read, so it does not answer questions: ${listed}.`
      : `${unread.length} pages need too much time or memory to read, so they do not answer questions: ${listed}.`;
  return sentence.length <= 500 ? sentence : `${sentence.slice(0, 499)}…`;
}

const FAILURES = {
  GAVE_UP: 'This file could not be processed. Please check it and upload it again.',
  MISSING: 'The stored file is missing. Please upload it again.',
  NO_TEXT: 'This file has no text to read.',
  UNREADABLE: 'This file could not be read. Please check it and upload it again.',
  UNREACHABLE: 'The website could not be read. Check the address and try again.',
} as const;

/**
 * One extraction job: claim the waiting source whose owner's turn it is, read its stored file (or crawl its
 * website), extract and split its text, and store the passages with status 'ready' (or 'failed' with a sentence). The
 * claim is a lease on the source row, so a job runs on one instance at a time, and the result is
 * written only while the claim holds.
 */
@Injectable()
export class SourceJobsService {
  private readonly logger = new Logger('SourceJobs');
  /** Ends a crawl in progress when the instance shuts down (the job is given back, not failed). */
  private readonly stopping = new AbortController();

  constructor(
    private readonly sources: SourcesRepository,
    private readonly passages: PassagesRepository,
    private readonly transactions: TransactionRunner,
    private readonly pages: SourcePagesRepository,
    private readonly documents: DocumentsService,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly crawler: WebsiteCrawler,
  ) {}

  /** The instance is shutting down: a crawl in progress stops and its job waits for another instance. */
  stop(): void {
    this.stopping.abort();
  }

  /**
   * Claims the next job of the pool on this instance: the oldest waiting job of the first owner
   * whose turn it is (SourceJobSlots.inTurn: owners at their cap wait, the others take turns).
   * Null when none is waiting. Another instance may claim a job between the look and the claim:
   * the next owner's is tried then.
   */
  async claimNext(pool: JobPool, slots: SourceJobSlots): Promise<ClaimedJob | null> {
    const waiting = await this.sources.waitingByOwner(pool, slots.ownersAtCap(pool));
    for (const candidate of slots.inTurn(pool, waiting)) {
      const job = await this.sources.claimJob(candidate.sourceId, randomUUID(), this.config.sources.jobLeaseMs);
      if (job) return job;
    }
    return null;
  }

  /**
   * Runs one claimed job: 'done' when its outcome is written (or it was deleted meanwhile),
   * 'later' when it was given back: the PDF reader is busy with other uploads, or the crawl was
   * stopped by `signal` (its source was deleted or re-queued) or by the instance shutting down.
   */
  async run(job: ClaimedJob, signal?: AbortSignal): Promise<'done' | 'later'> {
    // A file whose extraction killed its instance every time is not tried for ever.
    if (job.attempts > SOURCE_JOB_DEFAULTS.maxAttempts) {
      if (job.kind === 'website') await this.finishWebsite(job, failed(FAILURES.GAVE_UP), 'drop');
      else await this.finish(job, failed(FAILURES.GAVE_UP), []);
      return 'done';
    }
    if (job.kind === 'website') return this.crawl(job, signal);
    return this.read(job);
  }

  /** Reads a stored file into passages. */
  private async read(job: ClaimedJob): Promise<'done' | 'later'> {
    const bytes = job.storageKey ? await this.readStored(job.storageKey) : null;
    if (!bytes || !job.format) {
      await this.finish(job, failed(FAILURES.MISSING), []);
      return 'done';
    }
    let chunks: NewPassage[];
    let pages: number | null;
    try {
      if (job.format === 'pdf') {
        const prepared = await this.documents.prepare(bytes);
        chunks = prepared.chunks;
        pages = prepared.pageCount;
      } else {
        const extracted = await extractText(job.format, bytes);
        chunks = chunkPages(extracted.pages);
        pages = extracted.pageCount;
        if (chunks.length === 0) throw new UnreadableSourceError(FAILURES.NO_TEXT);
      }
    } catch (error) {
      if (error instanceof AppError && error.getStatus() === Number(HttpStatus.SERVICE_UNAVAILABLE)) {
        await this.sources.releaseJob(job);
        return 'later';
      }
      if (error instanceof AppError) {
        await this.finish(job, failed((error.getResponse() as { error: string }).error), []);
        return 'done';
      }
      if (error instanceof UnreadableSourceError) {
        await this.finish(job, failed(error.message), []);
        return 'done';
      }
      this.logger.error(`Source ${job.sourceId}: extraction failed: ${describeError(error)}`);
      await this.finish(job, failed(FAILURES.UNREADABLE), []);
      return 'done';
    }
    await this.finish(job, { status: 'ready', error: null, pages, chunks: chunks.length }, chunks);
    return 'done';
  }

  /**
   * Reads the website and brings its passages up to date page by page: a page the site answers
   * unchanged (304, or the same text) keeps its passages and their ids; a changed page's
   * passages are replaced; a new page's are added; a page the crawl no longer kept (gone from
   * the site or its sitemap, or past maxPages or the quota) loses its passages. The pages' text
   * counts in the bot's quota: the crawl keeps pages while they fit in what the other sources
   * leave, and the source says so in a notice when that stopped it. A refresh that fails keeps
   * the pages read before (the source stays ready, with a notice) rather than wiping them.
   */
  private async crawl(job: ClaimedJob, stop?: AbortSignal): Promise<'done' | 'later'> {
    const stored = await this.pages.listForSource(job.sourceId);
    const previous = new Map<string, PreviousPage>(
      stored.map((page) => [
        page.url,
        { contentHash: page.contentHash, etag: page.etag, lastModified: page.lastModified, bytes: page.bytes },
      ]),
    );
    const limit = this.config.sources.maxBytesPerBot;
    const botRoom = Math.max(0, limit - (await this.sources.bytesOfOtherSources(job.botId, job.sourceId)));
    // The account's quota too (docs/product.md#quotas): whichever leaves less room stops the crawl.
    const accountLimit = this.config.quotas.sourcesMaxBytesPerAccount;
    const accountRoom = Math.max(
      0,
      accountLimit - (await this.sources.bytesOfOwnerOtherSources(job.botId, job.sourceId)),
    );
    const room = Math.min(botRoom, accountRoom);
    let result: CrawlResult;
    try {
      result = await this.crawler.crawl(job.url ?? '', {
        maxPages: job.maxPages ?? undefined,
        // Shutdown, or the source deleted (with its bot or account) or re-queued: nothing is written.
        signal: stop ? AbortSignal.any([this.stopping.signal, stop]) : this.stopping.signal,
        previous,
        maxTextBytes: room,
      });
    } catch (error) {
      if (error instanceof CrawlError && error.code === 'CRAWL_ABORTED') {
        await this.sources.releaseJob(job);
        return 'later';
      }
      let sentence: string = FAILURES.UNREACHABLE;
      if (error instanceof CrawlError) sentence = error.message;
      else this.logger.error(`Source ${job.sourceId}: crawl failed: ${describeError(error)}`);
      if (stored.length > 0 && !(error instanceof CrawlError && error.code === 'QUOTA_REACHED')) {
        await this.keepAfterFailedRefresh(job, sentence);
      } else {
        await this.finishWebsite(job, failed(sentence), 'drop');
      }
      return 'done';
    }
    const notice =
      result.stoppedBy === 'quota'
        ? accountRoom < botRoom
          ? crawlAccountQuotaSentence(accountLimit, result.pages.length)
          : crawlQuotaSentence(limit, result.pages.length)
        : unreadPagesSentence(result.skipped);
    await this.finishWebsite(
      job,
      { status: 'ready', error: null, pages: 0, chunks: 0, notice, refreshed: true },
      {
        pages: result.pages,
        stored,
      },
    );
    return 'done';
  }

  /**
   * Writes a crawl's pages ('drop': none is kept, a failed first read; 'keep': those read
   * before stay, a failed refresh) and the source's new totals in one transaction, only while
   * this claim holds.
   */
  private async finishWebsite(
    job: ClaimedJob,
    outcome: JobOutcome,
    read: { pages: readonly CrawledPage[]; stored: readonly StoredPage[] } | 'drop' | 'keep',
  ): Promise<void> {
    const written = await this.transactions.run(async (tx) => {
      if (!(await this.sources.holdsClaim(tx, job))) return false;
      if (read === 'drop') {
        await this.passages.deleteForSource(tx, job.sourceId);
        await this.pages.deleteForSource(tx, job.sourceId);
      } else if (read !== 'keep') {
        await this.applyPages(tx, job, read.pages, read.stored);
      }
      const totals = await this.pages.totals(tx, job.sourceId);
      const final: JobOutcome =
        outcome.status === 'ready' ? { ...outcome, ...totals } : { ...outcome, pages: null, chunks: 0, bytes: 0 };
      return this.sources.completeJob(tx, job, final);
    });
    if (!written) this.logger.log(`Source ${job.sourceId} changed while it was read; its result was dropped.`);
  }

  private async applyPages(
    tx: Transaction,
    job: ClaimedJob,
    pages: readonly CrawledPage[],
    stored: readonly StoredPage[],
  ): Promise<void> {
    // A website read before pages were recorded one by one: its passages are replaced whole.
    if (stored.length === 0) await this.passages.deleteForSource(tx, job.sourceId);
    const kept = new Set(pages.map((page) => page.url.slice(0, PAGE_URL_MAX)));
    for (const page of stored) {
      if (kept.has(page.url)) continue;
      await this.passages.deleteForPage(tx, job.sourceId, page.url);
      await this.pages.delete(tx, job.sourceId, page.url);
    }
    const storedUrls = new Set(stored.map((page) => page.url));
    let ordinal = await this.passages.nextOrdinal(tx, job.sourceId);
    for (const page of pages) {
      const url = page.url.slice(0, PAGE_URL_MAX);
      if (page.unchanged && storedUrls.has(url)) {
        await this.pages.touch(tx, job.sourceId, url, page);
        continue;
      }
      // Never so (the crawler says unchanged only of stored addresses); read again next time.
      if (page.unchanged) continue;
      const title = page.title.slice(0, PAGE_TITLE_MAX);
      const chunks: NewPassage[] = chunkPages([page.text]).map((chunk) => ({
        page: 1,
        ordinal: ordinal++,
        content: chunk.content,
        pageUrl: url,
        pageTitle: title || null,
      }));
      await this.passages.deleteForPage(tx, job.sourceId, url);
      await this.passages.insert(tx, { sourceId: job.sourceId, botId: job.botId }, chunks);
      await this.pages.upsert(tx, job.sourceId, {
        url,
        title: title || null,
        contentHash: page.contentHash,
        etag: page.etag,
        lastModified: page.lastModified,
        chunks: chunks.length,
        bytes: page.bytes,
      });
    }
  }

  /** A refresh that could not read the site: the pages read before keep answering. */
  private async keepAfterFailedRefresh(job: ClaimedJob, sentence: string): Promise<void> {
    const notice = `The last refresh did not finish: ${sentence} The pages read before still answer questions.`;
    await this.finishWebsite(
      job,
      { status: 'ready', error: null, pages: 0, chunks: 0, notice: notice.slice(0, 500) },
      'keep',
    );
  }

  /** Writes the outcome and the passages in one transaction, only while this claim holds. */
  private async finish(job: ClaimedJob, outcome: JobOutcome, chunks: readonly NewPassage[]): Promise<void> {
    const written = await this.transactions.run(async (tx) => {
      if (!(await this.sources.completeJob(tx, job, outcome))) return false;
      await this.passages.deleteForSource(tx, job.sourceId);
      await this.passages.insert(tx, { sourceId: job.sourceId, botId: job.botId }, chunks);
      return true;
    });
    if (!written) this.logger.log(`Source ${job.sourceId} changed while it was read; its result was dropped.`);
  }

  private async readStored(key: string): Promise<Buffer | null> {
    const file = await this.storage.get(key);
    if (!file) return null;
    const parts: Buffer[] = [];
    let total = 0;
    for await (const part of file.body) {
      const buffer = Buffer.isBuffer(part) ? part : Buffer.from(part as Uint8Array);
      total += buffer.length;
      // Stored files were checked on upload; a larger one is not what was uploaded.
      if (total > SOURCE_FILE_MAX_BYTES) {
        file.body.destroy();
        return null;
      }
      parts.push(buffer);
    }
    return Buffer.concat(parts);
  }
}

function failed(error: string): JobOutcome {
  return { status: 'failed', error: error.slice(0, 500), pages: null, chunks: 0 };
}
