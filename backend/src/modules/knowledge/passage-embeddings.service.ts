import { Inject, Injectable, Logger } from '@nestjs/common';
import { EMBEDDING_DEFAULTS } from '../../common/constants.js';
import { nextUtcDay } from '../../common/utc-day.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { DailyQuotasService } from '../quotas/daily-quotas.service.js';
import { EMBEDDINGS, type EmbeddingsPort } from './embeddings/embeddings.port.js';
import { PassageVectorsRepository } from './passage-vectors.repository.js';
import { SourcesRepository, type ClaimedEmbedding } from './sources.repository.js';
import { describeError } from '../../common/error-description.js';

/**
 * A source's notice while its embedding waits for the account's daily quota of embedded passages
 * (EMBEDDED_PASSAGES_PER_ACCOUNT_PER_DAY); taken back once every passage has its vector.
 */
export const EMBEDDING_WAITS_NOTICE =
  "Your account reached today's limit of passages made searchable by meaning. This source answers by keyword search until the rest are done, from 00:00 UTC.";

/** Passages read per round: a few of the embeddings server's batches. */
const PASSAGES_PER_ROUND = EMBEDDING_DEFAULTS.batchSize * 4;

/**
 * Gives passages their vectors, apart from text extraction: a source is ready (answering by
 * full-text search) as soon as its text is indexed, and an embedding job then claims it, embeds
 * its passages in batches and stores the vectors. A failed attempt keeps the vectors stored so
 * far, is logged and recorded on the source, and is tried again later (after 1, 2, 4... minutes);
 * after the last attempt the source stays on full-text search until it is read again.
 */
@Injectable()
export class PassageEmbeddingsService {
  private readonly logger = new Logger('PassageEmbeddings');

  constructor(
    private readonly sources: SourcesRepository,
    private readonly vectors: PassageVectorsRepository,
    @Inject(EMBEDDINGS) private readonly embeddings: EmbeddingsPort | null,
    private readonly dailyQuotas: DailyQuotasService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Claims and runs one embedding job; false when none is waiting (or no model is configured). */
  async runNext(signal?: AbortSignal): Promise<boolean> {
    if (!this.embeddings) return false;
    const model = this.embeddings.model;
    const job = await this.sources.claimEmbedding(model, EMBEDDING_DEFAULTS.leaseMs, EMBEDDING_DEFAULTS.maxAttempts);
    if (!job) return false;
    try {
      if ((await this.embedSource(this.embeddings, job, signal)) === 'waits') return true;
      await this.sources.completeEmbedding(job, model);
      await this.sources.clearEmbeddingNotice(job.sourceId, EMBEDDING_WAITS_NOTICE);
    } catch (error) {
      // An instance shutting down leaves the job to the claim's lease, not to a failure's backoff.
      if (signal?.aborted) return false;
      await this.recordFailure(job, error);
    }
    return true;
  }

  /**
   * Embeds the source's passages without a vector, round by round, each round's passages first
   * taken from the owner's daily quota (docs/product.md#quotas). 'waits' when the quota ran out:
   * what it allowed is stored, and the rest waits for the next UTC day.
   */
  private async embedSource(
    embeddings: EmbeddingsPort,
    job: ClaimedEmbedding,
    signal?: AbortSignal,
  ): Promise<'done' | 'waits'> {
    const ownerId = await this.sources.ownerOfBot(job.botId);
    if (ownerId === null) return 'done';
    const cap = this.config.quotas.embeddedPassagesPerAccountPerDay;
    for (;;) {
      const found = await this.vectors.passagesWithoutVector(job.sourceId, embeddings.model, PASSAGES_PER_ROUND);
      if (found.length === 0) return 'done';
      const now = new Date();
      const allowed = await this.dailyQuotas.takeUpTo('embedded_passages', ownerId, found.length, cap, now);
      if (allowed === 0) {
        this.logger.log(
          `Source ${job.sourceId}: owner ${ownerId} reached today's embedded passages; waits for tomorrow.`,
        );
        await this.sources.deferEmbedding(job, EMBEDDING_WAITS_NOTICE, nextUtcDay(now));
        return 'waits';
      }
      const passages = found.slice(0, allowed);
      const vectors = await embeddings.embed(
        passages.map((passage) => passage.content),
        { purpose: 'passages', signal },
      );
      await this.vectors.store(
        job.botId,
        embeddings.model,
        passages.map((passage, i) => ({ chunkId: passage.chunkId, vector: vectors[i] })),
      );
      if (found.length < PASSAGES_PER_ROUND && allowed === found.length) return 'done';
    }
  }

  private async recordFailure(job: ClaimedEmbedding, error: unknown): Promise<void> {
    const reason = describeError(error);
    const last = job.attempts >= EMBEDDING_DEFAULTS.maxAttempts;
    const retryInMs = last
      ? null
      : Math.min(EMBEDDING_DEFAULTS.retryBaseMs * 2 ** (job.attempts - 1), EMBEDDING_DEFAULTS.retryMaxMs);
    const sentence = last
      ? `Embedding failed ${job.attempts} times; this source answers by keyword search only until it is read again. Last error: ${reason}`
      : `Embedding failed (attempt ${job.attempts}); it is tried again in ${Math.round(retryInMs! / 1000)} s. ${reason}`;
    this.logger.warn(`Source ${job.sourceId}: ${sentence}`);
    try {
      await this.sources.failEmbedding(job, sentence, retryInMs);
    } catch (recordError) {
      // The claim's lease runs out and the job is tried again; nothing is lost.
      this.logger.error(
        `Source ${job.sourceId}: could not record the embedding failure: ${describeError(recordError)}`,
      );
    }
  }
}
