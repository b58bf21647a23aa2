/** The embeddings port: text in, one vector per text out. Absent when no model is configured. */
export const EMBEDDINGS = Symbol('EMBEDDINGS');

export interface EmbedOptions {
  /** A visitor's question: one short attempt, so a slow server cannot hold up the answer. */
  purpose: 'passages' | 'query';
  signal?: AbortSignal;
}

export interface EmbeddingsPort {
  /** The model's id, stored beside each vector: vectors of another model are never compared. */
  readonly model: string;
  /**
   * One L2-normalised vector per text, in order, all of one length. Rejects with
   * EmbeddingsError when the server fails, times out or answers something else.
   */
  embed(texts: readonly string[], options: EmbedOptions): Promise<Float32Array[]>;
}

export type EmbeddingsErrorCode = 'EMBEDDINGS_FAILED' | 'EMBEDDINGS_TIMEOUT' | 'EMBEDDINGS_INVALID';

export class EmbeddingsError extends Error {
  constructor(
    readonly code: EmbeddingsErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'EmbeddingsError';
  }
}

/** Scales `vector` to length 1 in place (a zero vector stays zero); returns it. */
export function normalise(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const value of vector) sum += value * value;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < vector.length; i += 1) vector[i] /= norm;
  return vector;
}
