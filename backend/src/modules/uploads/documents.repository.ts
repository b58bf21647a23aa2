import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type EntityManager, type Repository } from 'typeorm';
import { BotDocumentEntity } from './bot-document.entity.js';
import type { Chunk } from './chunking.js';
import { DocumentChunkEntity } from './document-chunk.entity.js';

export type NewDocument = Pick<
  BotDocumentEntity,
  'botId' | 'originalName' | 'storageKey' | 'filePath' | 'sizeBytes' | 'pageCount'
>;

export interface ChunkMatch {
  page: number;
  content: string;
}

/** 5 parameters a row; PostgreSQL allows 65535 per statement. */
const CHUNK_INSERT_BATCH = 1000;

/** The only place that queries `bot_documents` and `document_chunks`. */
@Injectable()
export class DocumentsRepository {
  constructor(@InjectRepository(BotDocumentEntity) private readonly documents: Repository<BotDocumentEntity>) {}

  findForBot(botId: number, manager?: EntityManager): Promise<BotDocumentEntity | null> {
    const repo = manager ? manager.getRepository(BotDocumentEntity) : this.documents;
    return repo.findOneBy({ botId });
  }

  findForBots(botIds: number[]): Promise<BotDocumentEntity[]> {
    if (botIds.length === 0) return Promise.resolve([]);
    return this.documents.findBy({ botId: In(botIds) });
  }

  /** The document stored under `storageKey`, if its bot belongs to `ownerId`. */
  async findOwnedByStorageKey(ownerId: number, storageKey: string): Promise<BotDocumentEntity | null> {
    return this.documents
      .createQueryBuilder('d')
      .innerJoin('bots', 'b', 'b.id = d.bot_id')
      .where('d.storage_key = :storageKey AND b.owner_id = :ownerId', { storageKey, ownerId })
      .getOne();
  }

  async storageKeysOfOwner(ownerId: number, manager: EntityManager): Promise<string[]> {
    const rows: { storage_key: string }[] = await manager.query(
      'SELECT d.storage_key FROM bot_documents d JOIN bots b ON b.id = d.bot_id WHERE b.owner_id = $1',
      [ownerId],
    );
    return rows.map((row) => row.storage_key);
  }

  /**
   * Replaces the bot's document and all its passages inside the caller's transaction (the caller
   * holds the bot row's lock). Returns the document it replaced, if any.
   */
  async replaceForBot(
    manager: EntityManager,
    document: NewDocument,
    chunks: readonly Chunk[],
  ): Promise<BotDocumentEntity | null> {
    const documents = manager.getRepository(BotDocumentEntity);
    const previous = await documents.findOneBy({ botId: document.botId });
    // Its chunks go with it (ON DELETE CASCADE).
    if (previous) await documents.delete({ id: previous.id });
    const saved = await documents.save(documents.create(document));
    for (let start = 0; start < chunks.length; start += CHUNK_INSERT_BATCH) {
      const batch = chunks.slice(start, start + CHUNK_INSERT_BATCH).map((chunk) => ({
        documentId: saved.id,
        botId: document.botId,
        page: chunk.page,
        ordinal: chunk.ordinal,
        content: chunk.content,
      }));
      await manager.createQueryBuilder().insert().into(DocumentChunkEntity).values(batch).execute();
    }
    return previous;
  }

  /**
   * Full-text search over one bot's passages. Passages holding every term of the query come
   * first; passages holding only some still match (a visitor's question has words the document
   * lacks), ranked by ts_rank, then in document order.
   */
  async searchChunks(botId: number, query: string, limit: number): Promise<ChunkMatch[]> {
    const rows: { page: number; content: string }[] = await this.documents.query(
      `WITH q AS (
         SELECT websearch_to_tsquery('english', $2) AS strict,
                replace(websearch_to_tsquery('english', $2)::text, ' & ', ' | ')::tsquery AS loose
       )
       SELECT c.page, c.content
         FROM document_chunks c, q
        WHERE c.bot_id = $1 AND c.search_vector @@ q.loose
        ORDER BY (c.search_vector @@ q.strict) DESC, ts_rank(c.search_vector, q.loose) DESC, c.ordinal ASC
        LIMIT $3`,
      [botId, query, limit],
    );
    return rows.map((row) => ({ page: row.page, content: row.content }));
  }

  async chunkCount(botId: number): Promise<number> {
    return this.documents.manager.getRepository(DocumentChunkEntity).countBy({ botId });
  }
}
