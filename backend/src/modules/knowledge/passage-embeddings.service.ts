import { Inject, Injectable, Logger } from '@nestjs/common';
import { EMBEDDING_DEFAULTS } from '../../common/constants.js';
import { EMBEDDINGS, type EmbeddingsPort } from './embeddings/embeddings.port.js';
import { PassageVectorsRepository } from './passage-vectors.repository.js';
import { SourcesRepository, type ClaimedEmbedding } from './sources.repository.js';

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
  ) {}

  /** Claims and runs one embedding job; false when none is waiting (or no model is configured). */
  async runNext(signal?: AbortSignal): Promise<boolean> {
    if (!this.embeddings) return false;
    const model = this.embeddings.model;
    const job = await this.sources.claimEmbedding(model, EMBEDDING_DEFAULTS.leaseMs, EMBEDDING_DEFAULTS.maxAttempts);
    if (!job) return false;
    try {
      await this.embedSource(this.embeddings, job, signal);
      await this.sources.completeEmbedding(job, model);
    } catch (error) {
      // An instance shutting down leaves the job to the claim's lease, not to a failure's backoff.
      if (signal?.aborted) return false;
      await this.recordFailure(job, error);
    }
    return true;
  }

  private async embedSource(embeddings: EmbeddingsPort, job: ClaimedEmbedding, signal?: AbortSignal): Promise<void> {
    for (;;) {
      const passages = await this.vectors.passagesWithoutVector(job.sourceId, embeddings.model, PASSAGES_PER_ROUND);
      if (passages.length === 0) return;
      const vectors = await embeddings.embed(
        passages.map((passage) => passage.content),
        { purpose: 'passages', signal },
      );
      await this.vectors.store(
        job.botId,
        embeddings.model,
        passages.map((passage, i) => ({ chunkId: passage.chunkId, vector: vectors[i] })),
      );
      if (passages.length < PASSAGES_PER_ROUND) return;
    }
  }

  private async recordFailure(job: ClaimedEmbedding, error: unknown): Promise<void> {
    const reason = error instanceof Error ? error.message : String(error);
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
        `Source ${job.sourceId}: could not record the embedding failure: ${(recordError as Error).message}`,
      );
    }
  }
}
