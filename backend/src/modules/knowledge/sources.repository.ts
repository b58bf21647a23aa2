import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { returnedRows } from '../../database/query-results.js';
import { entityManagerOf, type Transaction } from '../../database/transaction.js';
import { BotSourceEntity, type RefreshSchedule, type SourceFormat, type SourceKind } from './bot-source.entity.js';
import type { JobPool, WaitingJob } from './source-job-slots.js';
import { QUOTA_LOCKS } from '../../common/constants.js';
import { waitForAdvisoryLock } from '../../database/advisory-locks.js';

export interface NewSource {
  botId: number;
  kind: SourceKind;
  name: string;
  status: BotSourceEntity['status'];
  format?: SourceFormat | null;
  pages?: number | null;
  chunks?: number;
  bytes: number;
  url?: string | null;
  maxPages?: number | null;
  storageKey?: string | null;
  isReference?: boolean;
  /** An owner's correction: `question` is the visitor question its text answers. */
  isCorrection?: boolean;
  question?: string | null;
  /** A written answer or correction: its text as written. */
  text?: string | null;
  refreshSchedule?: RefreshSchedule;
}

/** A correction whose question shares lexemes with a visitor's question (see question-match.ts). */
export interface CorrectionCandidate {
  sourceId: number;
  question: string;
  /** The correction question's full-text lexemes. */
  lexemes: string[];
  /** The visitor question's full-text lexemes. */
  askedLexemes: string[];
  createdAt: Date;
}

/** The most corrections one lookup compares (the closest by shared lexemes; newest on a tie). */
export const CORRECTION_CANDIDATES = 20;

/** A row of `correctionCandidatesSql`. */
export interface CorrectionCandidateRow {
  id: number;
  question: string;
  lexemes: string[];
  asked: string[];
  /** A Date, or its text when the row comes back as JSON (passages.repository.ts). */
  created_at: Date | string;
}

/**
 * The query of `correctionCandidates`, with its parameters' placeholders given: the chat answer's
 * retrieval runs it inside its search statement (PassagesRepository.searchWithCoverage).
 */
export function correctionCandidatesSql(params: { bot: string; question: string; limit: string }): string {
  return `WITH asked AS (SELECT tsvector_to_array(to_tsvector('english', ${params.question})) AS lexemes),
       corrections AS (
         SELECT s.id, s.question, s.created_at, tsvector_to_array(to_tsvector('english', s.question)) AS lexemes
           FROM bot_sources s
          WHERE s.bot_id = ${params.bot} AND s.is_correction AND s.status = 'ready' AND s.question IS NOT NULL
       )
       SELECT c.id, c.question, c.lexemes, a.lexemes AS asked, c.created_at
         FROM corrections c, asked a
        WHERE c.lexemes && a.lexemes OR (cardinality(c.lexemes) = 0 AND cardinality(a.lexemes) = 0)
        ORDER BY (c.lexemes <@ a.lexemes OR a.lexemes <@ c.lexemes) DESC,
                 (SELECT count(*) FROM unnest(c.lexemes) l WHERE l = ANY(a.lexemes))::float
                   / GREATEST(cardinality(array(SELECT unnest(c.lexemes) UNION SELECT unnest(a.lexemes))), 1) DESC,
                 c.id DESC
        LIMIT ${params.limit}`;
}

export function toCorrectionCandidate(row: CorrectionCandidateRow): CorrectionCandidate {
  return {
    sourceId: Number(row.id),
    question: row.question,
    lexemes: row.lexemes,
    askedLexemes: row.asked,
    createdAt: new Date(row.created_at),
  };
}

/** A claimed extraction job: the source it reads and the token that proves the claim. */
export interface ClaimedJob {
  sourceId: number;
  botId: number;
  /** The bot's owner: jobs are taken in turn per owner (source-job-slots.ts). */
  ownerId: number;
  kind: SourceKind;
  url: string | null;
  maxPages: number | null;
  format: SourceFormat | null;
  storageKey: string | null;
  attempts: number;
  token: string;
}

/** A claimed embedding job: the source whose passages get vectors, as it was when claimed. */
export interface ClaimedEmbedding {
  sourceId: number;
  botId: number;
  attempts: number;
  /** The source's `updated_at` at the claim: a source re-read since then is not marked done. */
  version: string;
}

export interface JobOutcome {
  status: 'ready' | 'failed';
  error: string | null;
  pages: number | null;
  chunks: number;
  /** A website's page text, counted against the quota (files keep the size they were uploaded with). */
  bytes?: number;
  /** A sentence about a ready source (the quota stopped its crawl, its last refresh failed). */
  notice?: string | null;
  /** A crawl read the website: `last_refreshed_at` becomes now. */
  refreshed?: boolean;
}

/** How long after a refresh the schedule `schedule` (an SQL expression) reads a website again (null for 'off'). */
function scheduleInterval(schedule: string): string {
  return `CASE ${schedule} WHEN 'daily' THEN interval '1 day' WHEN 'weekly' THEN interval '7 days' END`;
}

/** The only place that queries `bot_sources`. */
@Injectable()
export class SourcesRepository {
  constructor(@InjectRepository(BotSourceEntity) private readonly sources: Repository<BotSourceEntity>) {}

  listForBot(botId: number): Promise<BotSourceEntity[]> {
    return this.sources.find({ where: { botId }, order: { id: 'ASC' } });
  }

  findForBot(botId: number, sourceId: number, tx?: Transaction): Promise<BotSourceEntity | null> {
    const manager = tx && entityManagerOf(tx);
    const repo = manager ? manager.getRepository(BotSourceEntity) : this.sources;
    return repo.findOneBy({ botId, id: sourceId });
  }

  /** Bytes of every source of the bot, counted against its quota (call under the bot's row lock). */
  async bytesOfBot(tx: Transaction, botId: number): Promise<number> {
    const manager = entityManagerOf(tx);
    const [row]: { total: string | number | null }[] = await manager.query(
      'SELECT COALESCE(SUM(bytes), 0)::bigint AS total FROM bot_sources WHERE bot_id = $1',
      [botId],
    );
    return Number(row?.total ?? 0);
  }

  create(tx: Transaction, source: NewSource): Promise<BotSourceEntity> {
    const manager = entityManagerOf(tx);
    const repo = manager.getRepository(BotSourceEntity);
    return repo.save(
      repo.create({ format: null, pages: null, chunks: 0, url: null, maxPages: null, storageKey: null, ...source }),
    );
  }

  /**
   * The bot's ready corrections whose question shares a full-text lexeme with `question` (or,
   * when neither has any lexeme, every one of them, to be compared by normalised text), the
   * closest first (one's lexemes all among the other's, then by Jaccard similarity), newest
   * first on a tie. Reads the bot's
   * corrections through their partial index (bot_sources_corrections_idx).
   */
  async correctionCandidates(botId: number, question: string): Promise<CorrectionCandidate[]> {
    const rows: CorrectionCandidateRow[] = await this.sources.query(
      correctionCandidatesSql({ bot: '$1', question: '$2', limit: '$3' }),
      [botId, question, CORRECTION_CANDIDATES],
    );
    return rows.map(toCorrectionCandidate);
  }

  /** The bot's corrections (newest first, at most `limit`), with their questions' lexemes. */
  async correctionsOfBot(botId: number, limit: number): Promise<Omit<CorrectionCandidate, 'askedLexemes'>[]> {
    const rows: { id: number; question: string; lexemes: string[]; created_at: Date }[] = await this.sources.query(
      `SELECT id, question, created_at, tsvector_to_array(to_tsvector('english', question)) AS lexemes
         FROM bot_sources
        WHERE bot_id = $1 AND is_correction AND status = 'ready' AND question IS NOT NULL
        ORDER BY id DESC
        LIMIT $2`,
      [botId, limit],
    );
    return rows.map((row) => ({
      sourceId: row.id,
      question: row.question,
      lexemes: row.lexemes,
      createdAt: new Date(row.created_at),
    }));
  }

  /** Removes the source (its passages go with it, ON DELETE CASCADE); returns what it removed. */
  async delete(tx: Transaction, botId: number, sourceId: number): Promise<BotSourceEntity | null> {
    const manager = entityManagerOf(tx);
    const repo = manager.getRepository(BotSourceEntity);
    const found = await repo.findOneBy({ botId, id: sourceId });
    if (found) await repo.delete({ id: found.id });
    return found;
  }

  /** The bot's PDF file sources (not its reference document) of exactly `bytes` bytes: maybe the same file. */
  pdfSourcesOfSize(botId: number, bytes: number): Promise<Pick<BotSourceEntity, 'id' | 'storageKey'>[]> {
    return this.sources.find({
      select: { id: true, storageKey: true },
      where: { botId, kind: 'file', format: 'pdf', bytes, isReference: false },
      order: { id: 'ASC' },
    });
  }

  /** Removes the bot's reference-document source, if any (inside the caller's transaction). */
  async deleteReference(tx: Transaction, botId: number): Promise<BotSourceEntity | null> {
    const manager = entityManagerOf(tx);
    const repo = manager.getRepository(BotSourceEntity);
    const found = await repo.findOneBy({ botId, isReference: true });
    if (found) await repo.delete({ id: found.id });
    return found;
  }

  /**
   * A written answer or correction the owner edited: its new name (and question), passage count
   * and size; its passages were replaced by the caller in the same transaction, so their vectors
   * are computed again (a running embedding of the old text is not marked done: `updated_at` moves).
   */
  async rewrite(
    tx: Transaction,
    sourceId: number,
    written: { name: string; question: string | null; text: string; chunks: number; bytes: number },
  ): Promise<void> {
    const manager = entityManagerOf(tx);
    await manager.query(
      `UPDATE bot_sources
          SET name = $2, question = $3, chunks = $4, bytes = $5, text = $6, updated_at = now(),
              embedded_model = NULL, embed_attempts = 0, embed_retry_at = NULL, embed_error = NULL
        WHERE id = $1`,
      [sourceId, written.name, written.question, written.chunks, written.bytes, written.text],
    );
  }

  /** A written answer's or correction's text as its owner wrote it ('' when none was kept). */
  async writtenText(sourceId: number): Promise<string> {
    const [row]: { text: string | null }[] = await this.sources.query('SELECT text FROM bot_sources WHERE id = $1', [
      sourceId,
    ]);
    return row?.text ?? '';
  }

  /** Puts a file source back in the queue: it is read again by the next free worker. */
  async requeue(tx: Transaction, sourceId: number): Promise<void> {
    const manager = entityManagerOf(tx);
    await manager.query(
      `UPDATE bot_sources
          SET status = 'processing', error = NULL, job_token = NULL, job_lease_until = NULL, job_attempts = 0,
              next_refresh_at = NULL, updated_at = now()
        WHERE id = $1`,
      [sourceId],
    );
  }

  /**
   * Changes how often a website refreshes by itself; the next refresh is due one period after
   * the last one (after now, when it was never read), none for 'off' or while a crawl is under
   * way (its end sets it).
   */
  async setSchedule(tx: Transaction, sourceId: number, schedule: RefreshSchedule): Promise<void> {
    const manager = entityManagerOf(tx);
    await manager.query(
      `UPDATE bot_sources
          SET refresh_schedule = $2,
              next_refresh_at = CASE WHEN status = 'processing' THEN NULL
                                     ELSE COALESCE(last_refreshed_at, now()) + ${scheduleInterval('$2::varchar')} END,
              updated_at = now()
        WHERE id = $1`,
      [sourceId, schedule],
    );
  }

  /**
   * Queues every website whose scheduled refresh is due (at most `limit`), and returns their ids.
   * One statement claims and queues them: a row another instance is queueing is skipped (SKIP
   * LOCKED), and the outer WHERE is checked again on the locked row, so however many instances
   * run this at once, each due refresh is queued once.
   */
  async enqueueDueRefreshes(limit = 100): Promise<number[]> {
    const rows = returnedRows<{ id: number }>(
      await this.sources.query(
        `UPDATE bot_sources
            SET status = 'processing', job_token = NULL, job_lease_until = NULL, job_attempts = 0,
                next_refresh_at = NULL, updated_at = now()
          WHERE id IN (
            SELECT id FROM bot_sources
             WHERE next_refresh_at <= now() AND kind = 'website' AND refresh_schedule <> 'off'
               AND status <> 'processing'
             ORDER BY next_refresh_at
             LIMIT $1
             FOR UPDATE SKIP LOCKED)
            AND next_refresh_at <= now() AND refresh_schedule <> 'off' AND status <> 'processing'
        RETURNING id`,
        [limit],
      ),
    );
    return rows.map((row) => row.id).sort((a, b) => a - b);
  }

  /**
   * Locks the source's row if the claim still holds (same token, still processing): false when
   * the source was deleted, re-queued or taken over meanwhile, and nothing may be written.
   */
  async holdsClaim(tx: Transaction, job: ClaimedJob): Promise<boolean> {
    const manager = entityManagerOf(tx);
    await lockBotOf(manager, job);
    const rows: unknown[] = await manager.query(
      `SELECT id FROM bot_sources WHERE id = $1 AND job_token = $2 AND status = 'processing' FOR UPDATE`,
      [job.sourceId, job.token],
    );
    return rows.length > 0;
  }

  /**
   * Holds the owner's "adding source bytes" lock until the transaction ends (an advisory lock,
   * taken after the bot's row lock): two uploads to two of the owner's bots at once are checked
   * against the account's quota one after the other.
   */
  async lockOwnerSourceBytes(tx: Transaction, ownerId: number): Promise<void> {
    await waitForAdvisoryLock(tx, QUOTA_LOCKS.sourceBytes, ownerId);
  }

  /** Bytes of every source of every bot of the owner, counted against the account's quota. */
  async bytesOfOwner(tx: Transaction, ownerId: number): Promise<number> {
    const [row]: { total: string | number | null }[] = await entityManagerOf(tx).query(
      `SELECT COALESCE(SUM(s.bytes), 0)::bigint AS total FROM bot_sources s JOIN bots b ON b.id = s.bot_id
        WHERE b.owner_id = $1`,
      [ownerId],
    );
    return Number(row?.total ?? 0);
  }

  /** Bytes of the sources of the bot's owner other than this one (what the account's quota leaves for it). */
  async bytesOfOwnerOtherSources(botId: number, sourceId: number): Promise<number> {
    const [row]: { total: string | number | null }[] = await this.sources.query(
      `SELECT COALESCE(SUM(s.bytes), 0)::bigint AS total FROM bot_sources s JOIN bots b ON b.id = s.bot_id
        WHERE b.owner_id = (SELECT owner_id FROM bots WHERE id = $1) AND s.id <> $2`,
      [botId, sourceId],
    );
    return Number(row?.total ?? 0);
  }

  /** Bytes of the bot's sources other than this one (what is left of the quota for it). */
  async bytesOfOtherSources(botId: number, sourceId: number): Promise<number> {
    const [row]: { total: string | number | null }[] = await this.sources.query(
      'SELECT COALESCE(SUM(bytes), 0)::bigint AS total FROM bot_sources WHERE bot_id = $1 AND id <> $2',
      [botId, sourceId],
    );
    return Number(row?.total ?? 0);
  }

  /**
   * The oldest waiting job of each owner in the pool ('crawl': websites; 'file': the rest), owners
   * in `exceptOwners` left out: a processing source nobody holds, or whose holder let its lease
   * run out (an instance that died mid-job). At most `limit` owners; which of them goes first is
   * the scheduling rule's (SourceJobSlots.inTurn), and each is then claimed with `claimJob`.
   */
  async waitingByOwner(pool: JobPool, exceptOwners: readonly number[], limit = 1000): Promise<WaitingJob[]> {
    const rows: { id: number; owner_id: number }[] = await this.sources.query(
      `SELECT DISTINCT ON (b.owner_id) s.id, b.owner_id
         FROM bot_sources s JOIN bots b ON b.id = s.bot_id
        WHERE s.status = 'processing' AND (s.job_lease_until IS NULL OR s.job_lease_until < now())
          AND (s.kind = 'website') = $1 AND NOT (b.owner_id = ANY($2::int[]))
        ORDER BY b.owner_id, s.id
        LIMIT $3`,
      [pool === 'crawl', [...exceptOwners], limit],
    );
    return rows.map((row) => ({ sourceId: row.id, ownerId: row.owner_id }));
  }

  /**
   * Claims the waiting job of source `sourceId` for `leaseMs`, if it is still waiting: null when
   * another instance took it meanwhile, or it was deleted or finished. SKIP LOCKED lets several
   * instances claim at once without waiting on each other or taking the same row.
   */
  async claimJob(sourceId: number, token: string, leaseMs: number): Promise<ClaimedJob | null> {
    const rows = returnedRows<{
      id: number;
      bot_id: number;
      owner_id: number;
      kind: SourceKind;
      url: string | null;
      max_pages: number | null;
      format: SourceFormat | null;
      storage_key: string | null;
      job_attempts: number;
    }>(
      await this.sources.query(
        `UPDATE bot_sources s
          SET job_token = $2, job_lease_until = now() + ($3::int * interval '1 millisecond'),
              job_attempts = s.job_attempts + 1
         FROM bots b
        WHERE b.id = s.bot_id AND s.id = (
          SELECT id FROM bot_sources
           WHERE id = $1 AND status = 'processing' AND (job_lease_until IS NULL OR job_lease_until < now())
           FOR UPDATE SKIP LOCKED)
      RETURNING s.id, s.bot_id, b.owner_id, s.kind, s.url, s.max_pages, s.format, s.storage_key, s.job_attempts`,
        [sourceId, token, leaseMs],
      ),
    );
    const row = rows[0];
    if (!row) return null;
    return {
      sourceId: row.id,
      botId: row.bot_id,
      ownerId: row.owner_id,
      kind: row.kind,
      url: row.url,
      maxPages: row.max_pages,
      format: row.format,
      storageKey: row.storage_key,
      attempts: row.job_attempts,
      token,
    };
  }

  /**
   * Which of these claims still hold (the source exists, is processing, under the same token),
   * by token: a source deleted (itself, with its bot or with its account, on any instance) or
   * re-queued meanwhile is missing from the answer, and its job should stop.
   */
  async claimsHeld(jobs: readonly Pick<ClaimedJob, 'sourceId' | 'token'>[]): Promise<Set<string>> {
    if (jobs.length === 0) return new Set();
    const rows: { id: number; job_token: string | null }[] = await this.sources.query(
      `SELECT id, job_token FROM bot_sources WHERE id = ANY($1::int[]) AND status = 'processing'`,
      [jobs.map((job) => job.sourceId)],
    );
    const tokens = new Map(rows.map((row) => [row.id, row.job_token]));
    return new Set(jobs.filter((job) => tokens.get(job.sourceId) === job.token).map((job) => job.token));
  }

  /**
   * Records a job's outcome if the claim still holds (same token, still processing): false when
   * the source was deleted, re-queued or taken over meanwhile, and nothing may be written.
   */
  async completeJob(tx: Transaction, job: ClaimedJob, outcome: JobOutcome): Promise<boolean> {
    const manager = entityManagerOf(tx);
    await lockBotOf(manager, job);
    const rows = returnedRows<{ id: number }>(
      await manager.query(
        `UPDATE bot_sources
            SET status = $3, error = $4, pages = $5, chunks = $6, bytes = COALESCE($7, bytes), notice = $8,
                last_refreshed_at = CASE WHEN $9 THEN now() ELSE last_refreshed_at END,
                next_refresh_at = CASE WHEN kind = 'website' THEN now() + ${scheduleInterval('refresh_schedule')} END,
                job_token = NULL, job_lease_until = NULL, updated_at = now(),
                embedded_model = NULL, embed_attempts = 0, embed_retry_at = NULL, embed_error = NULL
          WHERE id = $1 AND job_token = $2 AND status = 'processing'
        RETURNING id`,
        [
          job.sourceId,
          job.token,
          outcome.status,
          outcome.error,
          outcome.pages,
          outcome.chunks,
          outcome.bytes ?? null,
          outcome.notice ?? null,
          outcome.refreshed ?? false,
        ],
      ),
    );
    return rows.length > 0;
  }

  /** Gives a claimed job back at once (an instance shutting down), so the next worker need not wait for the lease. */
  async releaseJob(job: ClaimedJob): Promise<void> {
    await this.sources.query(
      `UPDATE bot_sources SET job_token = NULL, job_lease_until = NULL, job_attempts = GREATEST(job_attempts - 1, 0)
        WHERE id = $1 AND job_token = $2`,
      [job.sourceId, job.token],
    );
  }

  /**
   * Claims the oldest ready source whose passages lack vectors of `model` (none yet, or of
   * another model), that has attempts left and is not waiting for a retry or held by another
   * instance; holds it for `leaseMs`.
   */
  async claimEmbedding(model: string, leaseMs: number, maxAttempts: number): Promise<ClaimedEmbedding | null> {
    const rows = returnedRows<{ id: number; bot_id: number; embed_attempts: number; version: string }>(
      await this.sources.query(
        `UPDATE bot_sources
            SET embed_retry_at = now() + ($2::int * interval '1 millisecond'), embed_attempts = embed_attempts + 1
          WHERE id = (
            SELECT id FROM bot_sources
             WHERE status = 'ready' AND chunks > 0 AND embedded_model IS DISTINCT FROM $1
               AND embed_attempts < $3 AND (embed_retry_at IS NULL OR embed_retry_at <= now())
             ORDER BY id
             LIMIT 1
             FOR UPDATE SKIP LOCKED)
        RETURNING id, bot_id, embed_attempts, updated_at::text AS version`,
        [model, leaseMs, maxAttempts],
      ),
    );
    const row = rows[0];
    if (!row) return null;
    return { sourceId: row.id, botId: row.bot_id, attempts: row.embed_attempts, version: row.version };
  }

  /** Every passage of the source has a vector of `model` (unless it was re-read since the claim). */
  async completeEmbedding(job: ClaimedEmbedding, model: string): Promise<void> {
    await this.sources.query(
      `UPDATE bot_sources
          SET embedded_model = $3, embed_attempts = 0, embed_retry_at = NULL, embed_error = NULL
        WHERE id = $1 AND updated_at = $2::timestamptz`,
      [job.sourceId, job.version, model],
    );
  }

  /**
   * Records a failed attempt: tried again after `retryInMs`, or (`retryInMs` null: no attempts
   * left) never, until the source is read again. Its passages keep answering by full-text search.
   */
  async failEmbedding(job: ClaimedEmbedding, error: string, retryInMs: number | null): Promise<void> {
    await this.sources.query(
      `UPDATE bot_sources
          SET embed_error = $3,
              embed_retry_at = CASE WHEN $4::int IS NULL THEN NULL ELSE now() + ($4::int * interval '1 millisecond') END
        WHERE id = $1 AND updated_at = $2::timestamptz`,
      [job.sourceId, job.version, error.slice(0, 500), retryInMs],
    );
  }

  /** The owner of the bot (null once it is deleted). */
  async ownerOfBot(botId: number): Promise<number | null> {
    const rows: { owner_id: number }[] = await this.sources.query('SELECT owner_id FROM bots WHERE id = $1', [botId]);
    return rows[0]?.owner_id ?? null;
  }

  /**
   * The account's daily quota of embedded passages is spent: the source's embedding waits until
   * `until` (not an attempt: the claim's count is given back), and its notice says so unless it
   * already has one (a crawl's). Its passages keep answering by full-text search.
   */
  async deferEmbedding(job: ClaimedEmbedding, notice: string, until: Date): Promise<void> {
    await this.sources.query(
      `UPDATE bot_sources
          SET embed_retry_at = $3::timestamptz, embed_attempts = GREATEST(embed_attempts - 1, 0),
              notice = COALESCE(notice, $4)
        WHERE id = $1 AND updated_at = $2::timestamptz`,
      [job.sourceId, job.version, until, notice],
    );
  }

  /** Takes back the notice `deferEmbedding` left, once the source's passages all have their vectors. */
  async clearEmbeddingNotice(sourceId: number, notice: string): Promise<void> {
    await this.sources.query(`UPDATE bot_sources SET notice = NULL WHERE id = $1 AND notice = $2`, [sourceId, notice]);
  }

  /** Storage keys of every file source of the owner's bots (to remove the files with the account). */
  async storageKeysOfOwner(ownerId: number, tx: Transaction): Promise<string[]> {
    const manager = entityManagerOf(tx);
    const rows: { storage_key: string }[] = await manager.query(
      `SELECT s.storage_key FROM bot_sources s JOIN bots b ON b.id = s.bot_id
        WHERE b.owner_id = $1 AND s.storage_key IS NOT NULL AND NOT s.is_reference`,
      [ownerId],
    );
    return rows.map((row) => row.storage_key);
  }

  /** Storage keys of the bot's file sources other than the reference document (which bot_documents records). */
  async storageKeysOfBot(botId: number, tx: Transaction): Promise<string[]> {
    const manager = entityManagerOf(tx);
    const rows: { storage_key: string }[] = await manager.query(
      `SELECT storage_key FROM bot_sources WHERE bot_id = $1 AND storage_key IS NOT NULL AND NOT is_reference`,
      [botId],
    );
    return rows.map((row) => row.storage_key);
  }
}

/**
 * A job writing its result takes its bot's row first (FOR KEY SHARE, as its passages' foreign key
 * would), then the source's: the order in which deleting a source or a bot, or re-queueing it,
 * takes them (the bot's row FOR UPDATE, then the source's). Taken the other way round, a crawl
 * finishing while its source was deleted deadlocked with the deletion (PostgreSQL's "deadlock
 * detected": the DELETE answered 500; seen in source-jobs-fairness.spec.ts).
 */
async function lockBotOf(manager: ReturnType<typeof entityManagerOf>, job: ClaimedJob): Promise<void> {
  await manager.query('SELECT id FROM bots WHERE id = $1 FOR KEY SHARE', [job.botId]);
}
