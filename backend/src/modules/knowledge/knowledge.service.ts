import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import type { Transaction } from '../../database/transaction.js';
import { AppError } from '../../common/app-error.js';
import { SOURCE_PAGES_PAGE_SIZE } from '@botsmith/contract';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { BotsService } from '../bots/bots.service.js';
import { chunkPages, cleanText } from './chunking.js';
import { DocumentsService } from './documents.service.js';
import { FILE_STORAGE, newStorageKey, STORED_FILE_TYPES, type FileStorage } from '../storage/file-storage.js';
import type { UploadedFileLike } from '../../common/single-file.interceptor.js';
import type { BotSourceEntity, RefreshSchedule } from './bot-source.entity.js';
import { docxRefusal } from './extraction/file-text.js';
import { decodeUtf8, detectSourceFormat } from './extraction/source-formats.js';
import type { SourcePagesPage, SourceResponse } from './knowledge.dto.js';
import { SourcePagesRepository } from './source-pages.repository.js';
import { correctionName } from './question-match.js';
import { PassageVectorsRepository } from './passage-vectors.repository.js';
import { PassagesRepository } from './passages.repository.js';
import { accountQuotaExceededSentence, quotaExceededSentence } from './quota.js';
import { DailyQuotasService } from '../quotas/daily-quotas.service.js';
import { SourceJobsWorker } from './source-jobs.worker.js';
import { SourcesRepository } from './sources.repository.js';
import { sourceFileName } from './source-names.js';
import { normaliseUrl } from './website/crawl-urls.js';
import { DEFAULT_MAX_PAGES } from './website/website-crawler.js';
import { describeError } from '../../common/error-description.js';

/** A website added without a schedule is read again weekly (docs/product.md#knowledge-sources). */
export const DEFAULT_REFRESH_SCHEDULE: RefreshSchedule = 'weekly';

const SENTENCES = {
  NOT_FOUND: 'Source not found.',
  UNSUPPORTED: 'This file type is not supported. Upload a PDF, Word (DOCX), text, Markdown, HTML or CSV file.',
  NO_TEXT: 'This file has no text to read.',
  NOT_REFRESHABLE: 'Only a file or a website can be read again.',
  NOT_SCHEDULABLE: 'Only a website can be read again on a schedule.',
  NOT_WRITTEN_ANSWER: 'Only a written answer can be edited here. Upload a file again or read a website again instead.',
  IS_CORRECTION:
    'This is a correction: edit it with its question and answer (PUT /api/bots/{id}/corrections/{sourceId}).',
  CORRECTION_NOT_FOUND: 'Correction not found.',
  NO_PAGES: 'Only a website has pages to list.',
  BAD_CURSOR: 'This page link is not valid any more. Please reload the list.',
  URL_INVALID: 'Enter a full web address starting with http:// or https://.',
  TEXT_NO_PASSAGES: 'This text has no words to answer from.',
} as const;

/** Past an owner's daily limit on websites added (docs/product.md#knowledge-sources). */
export function websitesLimitSentence(limit: number): string {
  return `You can add up to ${limit} websites a day. Try again tomorrow.`;
}

/** Past an owner's daily limit on refreshes asked for. */
export function refreshesLimitSentence(limit: number): string {
  return `You can ask for up to ${limit} sources to be read again a day. Try again tomorrow.`;
}

/**
 * The rules of a bot's knowledge sources: who may see and change them (the bot's owner; anyone
 * else gets 404), what a file may be, how much a bot may hold, and when a file is (re)read — in
 * the background, by {@link SourceJobsWorker}, so an upload answers at once.
 */
@Injectable()
export class KnowledgeService {
  private readonly logger = new Logger(KnowledgeService.name);

  constructor(
    private readonly bots: BotsService,
    private readonly sources: SourcesRepository,
    private readonly passages: PassagesRepository,
    private readonly vectors: PassageVectorsRepository,
    private readonly documents: DocumentsService,
    private readonly jobs: SourceJobsWorker,
    private readonly dailyQuotas: DailyQuotasService,
    private readonly pages: SourcePagesRepository,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(ownerId: number, botId: number): Promise<SourceResponse[]> {
    await this.bots.assertOwned(ownerId, botId);
    return this.responses(botId, await this.sources.listForBot(botId));
  }

  /** Sources as the API shows them, with how many of their passages have a vector yet. */
  private async responses(botId: number, sources: BotSourceEntity[]): Promise<SourceResponse[]> {
    const model = this.config.embeddings?.model;
    const embedded = model
      ? await this.vectors.countBySource(
          botId,
          sources.map((source) => source.id),
          model,
        )
      : null;
    return sources.map((source) =>
      toSourceResponse(source, embedded ? Math.min(embedded.get(source.id) ?? 0, source.chunks) : null),
    );
  }

  private async response(botId: number, source: BotSourceEntity): Promise<SourceResponse> {
    const [response] = await this.responses(botId, [source]);
    return response;
  }

  /** A written answer is indexed at once: it is ready when this returns. */
  addText(ownerId: number, botId: number, name: string, text: string): Promise<SourceResponse> {
    return this.addWritten(ownerId, botId, { name, text });
  }

  /**
   * The owner's answer to a visitor question (docs/product.md#corrections): a written answer
   * named after the question, marked as a correction, indexed at once and counted in the quota
   * like any written answer. Retrieval gives it first whenever a visitor asks that question or a
   * close variant (KnowledgeSearchService.correctionFor).
   */
  addCorrection(ownerId: number, botId: number, question: string, answer: string): Promise<SourceResponse> {
    return this.addWritten(ownerId, botId, {
      name: correctionName(question),
      text: answer,
      isCorrection: true,
      question: cleanText(question),
    });
  }

  private async addWritten(
    ownerId: number,
    botId: number,
    written: { name: string; text: string; isCorrection?: boolean; question?: string },
  ): Promise<SourceResponse> {
    const { name, text } = written;
    const chunks = chunkPages([text]);
    if (chunks.length === 0) {
      throw new AppError(HttpStatus.UNPROCESSABLE_ENTITY, 'SOURCE_NO_TEXT', SENTENCES.TEXT_NO_PASSAGES);
    }
    const bytes = Buffer.byteLength(text, 'utf8');
    const source = await this.bots.withLockedBot(ownerId, botId, async (tx) => {
      await this.assertRoom(tx, ownerId, botId, bytes);
      const created = await this.sources.create(tx, {
        botId,
        kind: 'text',
        name,
        status: 'ready',
        chunks: chunks.length,
        bytes,
        isCorrection: written.isCorrection ?? false,
        question: written.question ?? null,
        text,
      });
      await this.passages.insert(tx, { sourceId: created.id, botId }, chunks);
      return created;
    });
    // Its passages get their vectors in the background (when an embeddings model is configured).
    this.jobs.kick();
    return this.response(botId, source);
  }

  /**
   * A written answer edited by its owner (docs/product.md#knowledge-sources): its question (the
   * source's name) and answer replace the old ones, its passages are cut again at once and the
   * quota counts the new size instead of the old. A correction is edited through
   * {@link updateCorrection} (409 here), a file or website cannot be (409).
   */
  updateText(ownerId: number, botId: number, sourceId: number, name: string, text: string): Promise<SourceResponse> {
    return this.rewriteWritten(ownerId, botId, sourceId, { name, text, question: null });
  }

  /** An owner's correction edited: a new visitor question, a new answer (docs/product.md#corrections). */
  updateCorrection(
    ownerId: number,
    botId: number,
    sourceId: number,
    question: string,
    answer: string,
  ): Promise<SourceResponse> {
    return this.rewriteWritten(ownerId, botId, sourceId, {
      name: correctionName(question),
      text: answer,
      question: cleanText(question),
    });
  }

  private async rewriteWritten(
    ownerId: number,
    botId: number,
    sourceId: number,
    written: { name: string; text: string; question: string | null },
  ): Promise<SourceResponse> {
    const correction = written.question !== null;
    const chunks = chunkPages([written.text]);
    const bytes = Buffer.byteLength(written.text, 'utf8');
    const source = await this.bots.withLockedBot(ownerId, botId, async (tx) => {
      const found = await this.sources.findForBot(botId, sourceId, tx);
      if (correction && !found?.isCorrection) {
        throw AppError.notFound(SENTENCES.CORRECTION_NOT_FOUND, 'SOURCE_NOT_FOUND');
      }
      if (!found) throw AppError.notFound(SENTENCES.NOT_FOUND, 'SOURCE_NOT_FOUND');
      if (found.kind !== 'text') throw AppError.conflict(SENTENCES.NOT_WRITTEN_ANSWER, 'SOURCE_NOT_EDITABLE');
      if (!correction && found.isCorrection) throw AppError.conflict(SENTENCES.IS_CORRECTION, 'SOURCE_NOT_EDITABLE');
      if (chunks.length === 0) {
        throw new AppError(HttpStatus.UNPROCESSABLE_ENTITY, 'SOURCE_NO_TEXT', SENTENCES.TEXT_NO_PASSAGES);
      }
      // Only what it grows by has to fit; a shorter answer always does.
      if (bytes > found.bytes) await this.assertRoom(tx, ownerId, botId, bytes - found.bytes);
      await this.passages.deleteForSource(tx, found.id);
      await this.passages.insert(tx, { sourceId: found.id, botId }, chunks);
      await this.sources.rewrite(tx, found.id, { ...written, chunks: chunks.length, bytes });
      return (await this.sources.findForBot(botId, sourceId, tx))!;
    });
    this.jobs.kick();
    return this.response(botId, source);
  }

  /** A written answer's or correction's text as its owner wrote it, to edit it (409 for files and websites). */
  async writtenText(ownerId: number, botId: number, sourceId: number): Promise<{ text: string }> {
    await this.bots.assertOwned(ownerId, botId);
    const source = await this.sources.findForBot(botId, sourceId);
    if (!source) throw AppError.notFound(SENTENCES.NOT_FOUND, 'SOURCE_NOT_FOUND');
    if (source.kind !== 'text') throw AppError.conflict(SENTENCES.NOT_WRITTEN_ANSWER, 'SOURCE_NOT_EDITABLE');
    return { text: await this.sources.writtenText(source.id) };
  }

  /**
   * A website source's pages as its last crawl read them, SOURCE_PAGES_PAGE_SIZE at a time in
   * the order they were first read, each 'ready' (it has passages) or 'no_text' (read, nothing
   * to answer from). The cursor is opaque; one this server did not issue is 400 INVALID_CURSOR.
   */
  async listPages(ownerId: number, botId: number, sourceId: number, cursor?: string): Promise<SourcePagesPage> {
    let afterId = 0;
    if (cursor !== undefined) {
      const decoded = decodePageCursor(cursor);
      if (decoded === null) throw AppError.badRequest(SENTENCES.BAD_CURSOR, 'INVALID_CURSOR');
      afterId = decoded;
    }
    await this.bots.assertOwned(ownerId, botId);
    const source = await this.sources.findForBot(botId, sourceId);
    if (!source) throw AppError.notFound(SENTENCES.NOT_FOUND, 'SOURCE_NOT_FOUND');
    if (source.kind !== 'website') throw AppError.conflict(SENTENCES.NO_PAGES, 'SOURCE_HAS_NO_PAGES');
    const limit = SOURCE_PAGES_PAGE_SIZE;
    // One more than shown tells whether a next page exists without counting.
    const rows = await this.pages.pageForOwner(source.id, afterId, limit + 1);
    const shown = rows.slice(0, limit);
    const last = shown[shown.length - 1];
    return {
      pages: shown.map((page) => ({
        url: page.url,
        title: page.title,
        status: page.chunks > 0 ? 'ready' : 'no_text',
        chunks: page.chunks,
        bytes: page.bytes,
        readAt: page.readAt.toISOString(),
      })),
      nextCursor: rows.length > limit && last ? encodePageCursor(last.id) : null,
    };
  }

  /**
   * Stores the file and queues it: 201 with status 'processing' at once. Its type is decided by
   * its bytes (415 otherwise); a text file without text is 422; the bot's quota is checked under
   * the bot's row lock so two uploads cannot both squeeze past it (413).
   */
  async addFile(ownerId: number, botId: number, file: UploadedFileLike): Promise<SourceResponse> {
    await this.bots.assertOwned(ownerId, botId);
    const format = await detectSourceFormat(file.buffer, file.originalname);
    if (!format) throw new AppError(HttpStatus.UNSUPPORTED_MEDIA_TYPE, 'UNSUPPORTED_FILE_TYPE', SENTENCES.UNSUPPORTED);
    if (format !== 'pdf' && format !== 'docx' && decodeUtf8(file.buffer).trim() === '') {
      throw new AppError(HttpStatus.UNPROCESSABLE_ENTITY, 'FILE_NO_TEXT', SENTENCES.NO_TEXT);
    }
    const refusal = format === 'docx' ? docxRefusal(file.buffer) : null;
    if (refusal) throw new AppError(HttpStatus.UNPROCESSABLE_ENTITY, 'DOCX_TOO_LARGE', refusal);
    const key = newStorageKey('sources', format);
    await this.storage.put(key, file.buffer, STORED_FILE_TYPES[format]);
    let source: BotSourceEntity;
    try {
      source = await this.bots.withLockedBot(ownerId, botId, async (tx) => {
        await this.assertRoom(tx, ownerId, botId, file.size);
        return this.sources.create(tx, {
          botId,
          kind: 'file',
          name: sourceFileName(file.originalname, format),
          status: 'processing',
          format,
          bytes: file.size,
          storageKey: key,
        });
      });
    } catch (error) {
      await this.removeQuietly(key);
      throw error;
    }
    this.jobs.kick();
    return this.response(botId, source);
  }

  /**
   * Queues a website to crawl (201 with status 'processing'); the address must be an absolute
   * http(s) URL (400 otherwise). Which addresses may be reached is the crawler's rule, checked when
   * it connects (a private address fails the source with a sentence). A page count or schedule
   * sent as null means "not chosen", as when it is left out: the body's validation lets null
   * through optional fields, and a null schedule broke the NOT NULL column (a 500, found by
   * bench/fuzz.mjs).
   */
  async addWebsite(
    ownerId: number,
    botId: number,
    url: string,
    chosenMaxPages?: number | null,
    chosenSchedule?: RefreshSchedule | null,
  ): Promise<SourceResponse> {
    const maxPages = chosenMaxPages ?? DEFAULT_MAX_PAGES;
    const refreshSchedule = chosenSchedule ?? DEFAULT_REFRESH_SCHEDULE;
    const address = normaliseUrl(url);
    if (!address || !/^https?:\/\//i.test(address)) throw AppError.badRequest(SENTENCES.URL_INVALID, 'URL_INVALID');
    const source = await this.bots.withLockedBot(ownerId, botId, async (tx) => {
      const limit = this.config.sources.websitesPerOwnerPerDay;
      const at = new Date();
      if (!(await this.dailyQuotas.takeOne(tx, 'website_sources', ownerId, limit, at))) {
        throw AppError.dailyLimit('WEBSITE_SOURCES_DAILY_LIMIT', websitesLimitSentence(limit), at);
      }
      return this.sources.create(tx, {
        botId,
        kind: 'website',
        name: new URL(address).host,
        status: 'processing',
        bytes: 0,
        url: address,
        maxPages,
        refreshSchedule,
      });
    });
    this.jobs.kick();
    return this.response(botId, source);
  }

  /** Reads a file or website again (its current passages keep answering until the new ones land). */
  async refresh(ownerId: number, botId: number, sourceId: number): Promise<SourceResponse> {
    const source = await this.bots.withLockedBot(ownerId, botId, async (tx) => {
      const found = await this.sources.findForBot(botId, sourceId, tx);
      if (!found) throw AppError.notFound(SENTENCES.NOT_FOUND, 'SOURCE_NOT_FOUND');
      if (found.kind === 'text' || (found.kind === 'file' && !found.storageKey)) {
        throw AppError.conflict(SENTENCES.NOT_REFRESHABLE, 'SOURCE_NOT_REFRESHABLE');
      }
      const limit = this.config.sources.refreshesPerOwnerPerDay;
      const at = new Date();
      if (!(await this.dailyQuotas.takeOne(tx, 'source_refreshes', ownerId, limit, at))) {
        throw AppError.dailyLimit('SOURCE_REFRESHES_DAILY_LIMIT', refreshesLimitSentence(limit), at);
      }
      await this.sources.requeue(tx, found.id);
      return (await this.sources.findForBot(botId, sourceId, tx))!;
    });
    this.jobs.kick();
    return this.response(botId, source);
  }

  /** Changes how often a website is read again by itself (409 for other kinds of source). */
  async setSchedule(
    ownerId: number,
    botId: number,
    sourceId: number,
    schedule: RefreshSchedule,
  ): Promise<SourceResponse> {
    const source = await this.bots.withLockedBot(ownerId, botId, async (manager) => {
      const found = await this.sources.findForBot(botId, sourceId, manager);
      if (!found) throw AppError.notFound(SENTENCES.NOT_FOUND, 'SOURCE_NOT_FOUND');
      if (found.kind !== 'website') throw AppError.conflict(SENTENCES.NOT_SCHEDULABLE, 'SOURCE_NOT_SCHEDULABLE');
      await this.sources.setSchedule(manager, found.id, schedule);
      return (await this.sources.findForBot(botId, sourceId, manager))!;
    });
    return this.response(botId, source);
  }

  /** Removes the source and its passages at once, then its stored file. */
  async delete(ownerId: number, botId: number, sourceId: number): Promise<void> {
    const removed = await this.bots.withLockedBot(ownerId, botId, async (tx) => {
      const found = await this.sources.delete(tx, botId, sourceId);
      if (!found) throw AppError.notFound(SENTENCES.NOT_FOUND, 'SOURCE_NOT_FOUND');
      // The reference document is this source: the bot no longer has one.
      if (found.isReference) await this.documents.deleteForBot(tx, botId);
      return found;
    });
    // A crawl of it running here stops now; on another instance, at its next check of the claims.
    this.jobs.sourceRemoved(removed.id);
    if (removed.storageKey) await this.removeQuietly(removed.storageKey);
  }

  /**
   * The bot's quota, then the account's (all its bots together, docs/product.md#quotas). Called
   * under the bot's row lock; the account's is counted under the owner's source-bytes lock, so two
   * uploads to two bots at once cannot both squeeze past it.
   */
  private async assertRoom(tx: Transaction, ownerId: number, botId: number, adding: number): Promise<void> {
    const limit = this.config.sources.maxBytesPerBot;
    const used = await this.sources.bytesOfBot(tx, botId);
    if (used + adding > limit) {
      throw new AppError(HttpStatus.PAYLOAD_TOO_LARGE, 'SOURCES_QUOTA_EXCEEDED', quotaExceededSentence(limit));
    }
    const accountLimit = this.config.quotas.sourcesMaxBytesPerAccount;
    await this.sources.lockOwnerSourceBytes(tx, ownerId);
    if ((await this.sources.bytesOfOwner(tx, ownerId)) + adding > accountLimit) {
      throw new AppError(
        HttpStatus.PAYLOAD_TOO_LARGE,
        'ACCOUNT_SOURCES_QUOTA_EXCEEDED',
        accountQuotaExceededSentence(accountLimit),
      );
    }
  }

  private async removeQuietly(key: string): Promise<void> {
    try {
      await this.storage.delete(key);
    } catch (error) {
      this.logger.warn(`Could not remove stored file ${key}: ${describeError(error)}`);
    }
  }
}

/** A pages cursor: base64url of `p<last page id>`; opaque to clients. */
function encodePageCursor(id: number): string {
  return Buffer.from(`p${id}`, 'utf8').toString('base64url');
}

/** The page id a cursor ends at, or null when the text is not one this server issued. */
function decodePageCursor(text: string): number | null {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(text)) return null;
  const decoded = Buffer.from(text, 'base64url');
  if (decoded.toString('base64url') !== text) return null;
  const match = /^p([1-9]\d{0,9})$/.exec(decoded.toString('utf8'));
  if (!match) return null;
  const id = Number(match[1]);
  return id <= 2_147_483_647 ? id : null;
}

/** `embedded`: passages with a vector of the configured embeddings model; null without one. */
export function toSourceResponse(source: BotSourceEntity, embedded: number | null): SourceResponse {
  return {
    id: source.id,
    kind: source.kind,
    name: source.name,
    status: source.status,
    error: source.error,
    pages: source.pages,
    chunks: source.chunks,
    bytes: source.bytes,
    url: source.url,
    refreshSchedule: source.kind === 'website' ? source.refreshSchedule : null,
    lastRefreshedAt: source.lastRefreshedAt?.toISOString() ?? null,
    nextRefreshAt: source.nextRefreshAt?.toISOString() ?? null,
    notice: source.notice,
    correction: source.isCorrection,
    question: source.isCorrection ? source.question : null,
    reference: source.isReference,
    embedded,
    createdAt: source.createdAt.toISOString(),
    updatedAt: source.updatedAt.toISOString(),
  };
}
