import os from 'node:os';
import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { DocumentChunkEntity } from './document-chunk.entity.js';

/** How the database keeps vectors: pgvector's `vector` type, or float32 bytes scanned here. */
export type VectorStorage = 'pgvector' | 'scan';

/** A passage still to be embedded. */
export interface PassageText {
  chunkId: number;
  content: string;
}

export interface NearPassage {
  chunkId: number;
  /** Cosine similarity to the question, -1..1. */
  similarity: number;
}

/**
 * The only place that queries `passage_embeddings`: one vector per passage and model, removed
 * with its passage (ON DELETE CASCADE). Which storage the database has is read once at start,
 * from the column's type (the migration chose pgvector where the database offers it).
 */
@Injectable()
export class PassageVectorsRepository implements OnApplicationBootstrap {
  private readonly logger = new Logger('PassageVectors');
  private detected: Promise<VectorStorage> | undefined;
  /** The scan storage's vectors per bot, model and length, least recently used first. */
  private readonly scanCache = new Map<string, VectorMatrix>();

  constructor(@InjectRepository(DocumentChunkEntity) private readonly chunks: Repository<DocumentChunkEntity>) {}

  async onApplicationBootstrap(): Promise<void> {
    this.logger.log(
      `Passage vectors are kept ${(await this.storage()) === 'pgvector' ? 'in pgvector' : 'as bytes, ranked by an exact cosine scan'}.`,
    );
  }

  /** 'pgvector' or 'scan', asked of the database once. */
  storage(): Promise<VectorStorage> {
    this.detected ??= this.chunks
      .query(
        `SELECT t.typname FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
          WHERE a.attrelid = 'passage_embeddings'::regclass AND a.attname = 'embedding'`,
      )
      .then((rows: { typname: string }[]) => (rows[0]?.typname === 'vector' ? 'pgvector' : 'scan'));
    return this.detected;
  }

  /** Passages of the source without a vector of `model`, in order, at most `limit`. */
  async passagesWithoutVector(sourceId: number, model: string, limit: number): Promise<PassageText[]> {
    const rows: { id: number; content: string }[] = await this.chunks.query(
      `SELECT c.id, c.content FROM document_chunks c
        WHERE c.source_id = $1
          AND NOT EXISTS (SELECT 1 FROM passage_embeddings e WHERE e.chunk_id = c.id AND e.model = $2)
        ORDER BY c.id
        LIMIT $3`,
      [sourceId, model, limit],
    );
    return rows.map((row) => ({ chunkId: row.id, content: row.content }));
  }

  /**
   * Stores vectors of `model` for passages of `botId`. A passage deleted meanwhile (its source
   * was re-read or removed) is skipped, and one already embedded keeps its vector.
   */
  async store(
    botId: number,
    model: string,
    vectors: readonly { chunkId: number; vector: Float32Array }[],
  ): Promise<void> {
    if (vectors.length === 0) return;
    const ids = vectors.map((v) => v.chunkId);
    if ((await this.storage()) === 'pgvector') {
      await this.chunks.query(
        `INSERT INTO passage_embeddings (chunk_id, bot_id, model, embedding)
         SELECT c.id, $2, $3, v.embedding::vector
           FROM unnest($1::int[], $4::text[]) AS v(chunk_id, embedding)
           JOIN document_chunks c ON c.id = v.chunk_id AND c.bot_id = $2
         ON CONFLICT (chunk_id) DO NOTHING`,
        [ids, botId, model, vectors.map((v) => `[${Array.from(v.vector).join(',')}]`)],
      );
      return;
    }
    await this.chunks.query(
      `INSERT INTO passage_embeddings (chunk_id, bot_id, model, embedding)
       SELECT c.id, $2, $3, v.embedding
         FROM unnest($1::int[], $4::bytea[]) AS v(chunk_id, embedding)
         JOIN document_chunks c ON c.id = v.chunk_id AND c.bot_id = $2
       ON CONFLICT (chunk_id) DO NOTHING`,
      [ids, botId, model, vectors.map((v) => toBytes(v.vector))],
    );
  }

  /**
   * How many passages of each of these sources of the bot have a vector of `model`; a source
   * without any is left out.
   */
  async countBySource(botId: number, sourceIds: readonly number[], model: string): Promise<Map<number, number>> {
    if (sourceIds.length === 0) return new Map();
    const rows: { source_id: number; n: number }[] = await this.chunks.query(
      `SELECT c.source_id, count(*)::int AS n
         FROM passage_embeddings e
         JOIN document_chunks c ON c.id = e.chunk_id
        WHERE e.bot_id = $1 AND e.model = $2 AND c.source_id = ANY($3::int[])
        GROUP BY c.source_id`,
      [botId, model, sourceIds],
    );
    return new Map(rows.map((row) => [row.source_id, row.n]));
  }

  /** Whether any passage of the bot has a vector of `model` (a question need not be embedded otherwise). */
  async botHasVectors(botId: number, model: string): Promise<boolean> {
    const rows: unknown[] = await this.chunks.query(
      'SELECT 1 FROM passage_embeddings WHERE bot_id = $1 AND model = $2 LIMIT 1',
      [botId, model],
    );
    return rows.length > 0;
  }

  /**
   * The `limit` passages of the bot's usable sources nearest to `query` (an L2-normalised
   * vector of `model`) by cosine, nearest first. Exact in both storages: pgvector ranks the bot's
   * rows without an approximate index; the scan ranks the bot's vectors here, kept in memory
   * between questions while they have not changed.
   */
  async nearest(botId: number, model: string, query: Float32Array, limit: number): Promise<NearPassage[]> {
    if ((await this.storage()) === 'pgvector') {
      const rows: { chunk_id: number; distance: number }[] = await this.chunks.query(
        `SELECT e.chunk_id, e.embedding <=> $3::vector AS distance
           FROM passage_embeddings e
           JOIN document_chunks c ON c.id = e.chunk_id
           JOIN bot_sources s ON s.id = c.source_id
          WHERE e.bot_id = $1 AND e.model = $2 AND s.status <> 'failed'
            AND vector_dims(e.embedding) = $5
          ORDER BY distance ASC, e.chunk_id ASC
          LIMIT $4`,
        [botId, model, `[${Array.from(query).join(',')}]`, limit, query.length],
      );
      return rows.map((row) => ({ chunkId: row.chunk_id, similarity: 1 - Number(row.distance) }));
    }
    const matrix = await this.scanMatrix(botId, model, query.length);
    return rankMatrix(matrix, query, limit);
  }

  /**
   * The bot's vectors of `model` for the scan, read from the database only when they changed:
   * passages only ever gain a vector once (new passages get new ids) or lose it with their
   * passage, so the count, largest and sum of the ids tell whether the cached copy still holds.
   * The cache keeps the most recently used bots within SCAN_CACHE_MAX_BYTES.
   */
  private async scanMatrix(botId: number, model: string, dims: number): Promise<VectorMatrix> {
    const key = `${botId}:${model}:${dims}`;
    const [state]: { n: number; m: number; s: string }[] = await this.chunks.query(
      `SELECT count(*)::int AS n, COALESCE(max(chunk_id), 0) AS m, COALESCE(sum(chunk_id), 0)::text AS s
         FROM passage_embeddings WHERE bot_id = $1 AND model = $2`,
      [botId, model],
    );
    const fingerprint = `${state.n}:${state.m}:${state.s}`;
    const cached = this.scanCache.get(key);
    if (cached && cached.fingerprint === fingerprint) {
      this.scanCache.delete(key);
      this.scanCache.set(key, cached);
      return cached;
    }
    const rows: { chunk_id: number; embedding: Buffer }[] = await this.chunks.query(
      'SELECT chunk_id, embedding FROM passage_embeddings WHERE bot_id = $1 AND model = $2',
      [botId, model],
    );
    const usable = rows.filter((row) => row.embedding.length === dims * 4);
    const matrix: VectorMatrix = {
      fingerprint,
      dims,
      ids: Int32Array.from(usable, (row) => row.chunk_id),
      vectors: new Float32Array(usable.length * dims),
    };
    usable.forEach((row, i) => matrix.vectors.set(fromBytes(row.embedding), i * dims));
    this.scanCache.delete(key);
    this.scanCache.set(key, matrix);
    let bytes = 0;
    for (const entry of this.scanCache.values()) bytes += entry.vectors.byteLength;
    for (const [oldest, entry] of this.scanCache) {
      if (bytes <= SCAN_CACHE_MAX_BYTES || oldest === key) break;
      bytes -= entry.vectors.byteLength;
      this.scanCache.delete(oldest);
    }
    return matrix;
  }

  countForBot(botId: number): Promise<number> {
    return this.chunks
      .query('SELECT count(*)::int AS n FROM passage_embeddings WHERE bot_id = $1', [botId])
      .then((rows: { n: number }[]) => rows[0]?.n ?? 0);
  }
}

/** A vector as the bytes the scan storage keeps: float32, little-endian. */
export function toBytes(vector: Float32Array): Buffer {
  const bytes = Buffer.alloc(vector.length * 4);
  for (let i = 0; i < vector.length; i += 1) bytes.writeFloatLE(vector[i], i * 4);
  return bytes;
}

/** Memory the scan storage may hold for vectors of recently asked bots (10,000 passages of 1536 numbers: 61 MB). */
const SCAN_CACHE_MAX_BYTES = 256 * 1024 * 1024;

/** A bot's vectors, one after another, and the passage of each. */
interface VectorMatrix {
  fingerprint: string;
  dims: number;
  ids: Int32Array;
  vectors: Float32Array;
}

/**
 * Exact cosine ranking of a matrix of normalised vectors against a normalised query (their dot
 * products): the `limit` best, kept in order while scanning, so no list of every passage is sorted.
 */
function rankMatrix(matrix: VectorMatrix, query: Float32Array, limit: number): NearPassage[] {
  const { dims, ids, vectors } = matrix;
  const best: NearPassage[] = [];
  if (limit < 1) return best;
  for (let row = 0; row < ids.length; row += 1) {
    let dot = 0;
    const offset = row * dims;
    for (let i = 0; i < dims; i += 1) dot += vectors[offset + i] * query[i];
    if (best.length === limit && !ranksBefore(dot, ids[row], best[limit - 1])) continue;
    let at = best.length;
    while (at > 0 && ranksBefore(dot, ids[row], best[at - 1])) at -= 1;
    best.splice(at, 0, { chunkId: ids[row], similarity: dot });
    if (best.length > limit) best.pop();
  }
  return best;
}

/** Higher similarity first; equal ones by passage id, so the order is deterministic. */
function ranksBefore(similarity: number, chunkId: number, other: NearPassage): boolean {
  return similarity > other.similarity || (similarity === other.similarity && chunkId < other.chunkId);
}

const LITTLE_ENDIAN = os.endianness() === 'LE';

/** The stored bytes as floats: a view where the platform allows, else a copy. */
export function fromBytes(bytes: Buffer): Float32Array {
  if (LITTLE_ENDIAN && bytes.byteOffset % 4 === 0) {
    return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
  }
  const vector = new Float32Array(bytes.length / 4);
  for (let i = 0; i < vector.length; i += 1) vector[i] = bytes.readFloatLE(i * 4);
  return vector;
}
