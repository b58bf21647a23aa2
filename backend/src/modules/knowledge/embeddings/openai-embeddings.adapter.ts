import type OpenAI from 'openai';
import { loadedOpenAi, openAiClient } from '../../../common/openai-sdk.js';
import { EMBEDDING_DEFAULTS } from '../../../common/constants.js';
import { EmbeddingsError, normalise, type EmbeddingsPort, type EmbedOptions } from './embeddings.port.js';
import { describeError } from '../../../common/error-description.js';

export interface OpenAiEmbeddingsOptions {
  apiKey: string;
  /** Any OpenAI-compatible server (Ollama, vLLM, llama.cpp, LocalAI): e.g. http://localhost:11434/v1. */
  baseUrl?: string;
  model: string;
  /** Sent only when set: not every compatible server knows the parameter. */
  dimensions?: number;
  /** Per request while indexing passages (the SDK's timeout). */
  timeoutMs: number;
  /** The SDK's own retries of connection errors, 408, 409, 429 and 5xx while indexing. */
  maxRetries: number;
  batchSize?: number;
  /** A question's embedding: one attempt this long at most. */
  queryTimeoutMs?: number;
}

/**
 * The production embeddings: the official `openai` SDK's `/embeddings`, in batches of
 * `batchSize` texts, asking for plain float arrays (`encoding_format: 'float'`: the SDK's default
 * base64 is not understood by every compatible server). Each answer is checked (one vector per
 * text, all of one length, finite numbers) before it is trusted; vectors come back L2-normalised,
 * so a dot product is their cosine.
 */
export class OpenAiEmbeddingsAdapter implements EmbeddingsPort {
  readonly model: string;
  /** Made on the first request, when the SDK is imported (openAiClient). */
  private client?: Promise<OpenAI>;
  private readonly batchSize: number;
  private readonly queryTimeoutMs: number;

  constructor(private readonly options: OpenAiEmbeddingsOptions) {
    this.model = options.model;
    this.batchSize = Math.max(1, options.batchSize ?? EMBEDDING_DEFAULTS.batchSize);
    this.queryTimeoutMs = Math.min(options.queryTimeoutMs ?? EMBEDDING_DEFAULTS.queryTimeoutMs, options.timeoutMs);
  }

  async embed(texts: readonly string[], options: EmbedOptions): Promise<Float32Array[]> {
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      const batch = texts.slice(start, start + this.batchSize);
      const answer = await this.request(batch, options);
      for (const vector of answer) {
        if (vectors.length > 0 && vector.length !== vectors[0].length) {
          throw new EmbeddingsError(
            'EMBEDDINGS_INVALID',
            `The embeddings server answered vectors of ${vector.length} and ${vectors[0].length} numbers for one model.`,
          );
        }
        vectors.push(vector);
      }
    }
    return vectors;
  }

  private async request(batch: readonly string[], options: EmbedOptions): Promise<Float32Array[]> {
    const query = options.purpose === 'query';
    const timeoutMs = query ? this.queryTimeoutMs : this.options.timeoutMs;
    const started = Date.now();
    let response: OpenAI.CreateEmbeddingResponse;
    try {
      this.client ??= openAiClient(this.options);
      const client = await this.client;
      response = await client.embeddings.create(
        {
          model: this.model,
          input: [...batch],
          encoding_format: 'float',
          ...(this.options.dimensions ? { dimensions: this.options.dimensions } : {}),
        },
        { signal: options.signal, timeout: timeoutMs, ...(query ? { maxRetries: 0 } : {}) },
      );
    } catch (error) {
      throw classify(error, timeoutMs, Date.now() - started);
    }
    return vectorsOf(response, batch.length);
  }
}

/** The answer's vectors in input order, or EMBEDDINGS_INVALID saying what is wrong with it. */
function vectorsOf(response: OpenAI.CreateEmbeddingResponse, expected: number): Float32Array[] {
  const data: unknown = (response as { data?: unknown }).data;
  if (!Array.isArray(data) || data.length !== expected) {
    const got = Array.isArray(data) ? `${data.length} vectors` : 'no vectors';
    throw new EmbeddingsError('EMBEDDINGS_INVALID', `The embeddings server answered ${got} for ${expected} texts.`);
  }
  const vectors = new Array<Float32Array | undefined>(expected);
  data.forEach((item: { index?: unknown; embedding?: unknown }, position) => {
    const index = typeof item?.index === 'number' ? item.index : position;
    const embedding = item?.embedding;
    if (!Number.isInteger(index) || index < 0 || index >= expected || vectors[index]) {
      throw new EmbeddingsError('EMBEDDINGS_INVALID', `The embeddings server answered a vector for text ${index}.`);
    }
    if (!Array.isArray(embedding) || embedding.length === 0 || !embedding.every((n) => Number.isFinite(n))) {
      throw new EmbeddingsError('EMBEDDINGS_INVALID', 'The embeddings server answered a vector that is not numbers.');
    }
    vectors[index] = normalise(Float32Array.from(embedding as number[]));
  });
  const length = vectors[0]!.length;
  if (vectors.some((vector) => vector!.length !== length)) {
    throw new EmbeddingsError('EMBEDDINGS_INVALID', 'The embeddings server answered vectors of different lengths.');
  }
  return vectors as Float32Array[];
}

function classify(error: unknown, timeoutMs: number, elapsedMs: number): EmbeddingsError {
  if (error instanceof EmbeddingsError) return error;
  // A connection error after at least the timeout is the SDK's timeout, whichever realm its
  // AbortError came from (the SDK only recognises its own realm's).
  const sdk = loadedOpenAi();
  const timedOut =
    sdk !== undefined &&
    (error instanceof sdk.APIConnectionTimeoutError ||
      (error instanceof sdk.APIConnectionError && elapsedMs >= timeoutMs));
  if (timedOut) {
    return new EmbeddingsError('EMBEDDINGS_TIMEOUT', `The embeddings server took longer than ${timeoutMs} ms.`, {
      cause: error,
    });
  }
  if (sdk !== undefined && error instanceof sdk.APIError && typeof error.status === 'number') {
    return new EmbeddingsError(
      'EMBEDDINGS_FAILED',
      `The embeddings server answered ${error.status}: ${error.message}`,
      {
        cause: error,
      },
    );
  }
  const detail = describeError(error);
  return new EmbeddingsError('EMBEDDINGS_FAILED', `The embeddings server could not be reached: ${detail}`, {
    cause: error,
  });
}
