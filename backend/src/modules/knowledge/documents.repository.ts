import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type Repository } from 'typeorm';
import { entityManagerOf, type Transaction } from '../../database/transaction.js';
import { BotDocumentEntity } from './bot-document.entity.js';
import { PassagesRepository } from './passages.repository.js';
import { SourcesRepository } from './sources.repository.js';
import type { Chunk } from './chunking.js';

export type NewDocument = Pick<
  BotDocumentEntity,
  'botId' | 'originalName' | 'storageKey' | 'filePath' | 'sizeBytes' | 'pageCount'
>;

export interface ChunkMatch {
  page: number;
  content: string;
}

/** The only place that queries `bot_documents`; passages and sources through their repositories. */
@Injectable()
export class DocumentsRepository {
  constructor(
    @InjectRepository(BotDocumentEntity) private readonly documents: Repository<BotDocumentEntity>,
    private readonly sources: SourcesRepository,
    private readonly passages: PassagesRepository,
  ) {}

  findForBot(botId: number, tx?: Transaction): Promise<BotDocumentEntity | null> {
    const manager = tx && entityManagerOf(tx);
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

  /** Every stored file of the owner's bots: reference documents and other file sources. */
  async storageKeysOfOwner(ownerId: number, tx: Transaction): Promise<string[]> {
    const manager = entityManagerOf(tx);
    const rows: { storage_key: string }[] = await manager.query(
      'SELECT d.storage_key FROM bot_documents d JOIN bots b ON b.id = d.bot_id WHERE b.owner_id = $1',
      [ownerId],
    );
    return [...rows.map((row) => row.storage_key), ...(await this.sources.storageKeysOfOwner(ownerId, tx))];
  }

  /** Every stored file of one bot: its reference document and other file sources. */
  async storageKeysOfBot(botId: number, tx: Transaction): Promise<string[]> {
    const document = await this.findForBot(botId, tx);
    return [...(document ? [document.storageKey] : []), ...(await this.sources.storageKeysOfBot(botId, tx))];
  }

  /**
   * Replaces the bot's document, its "reference document" source and that source's passages
   * inside the caller's transaction (the caller holds the bot row's lock). The bot's other
   * sources are untouched. Returns the document it replaced, if any.
   */
  async replaceForBot(
    tx: Transaction,
    document: NewDocument,
    chunks: readonly Chunk[],
    absorbedSourceIds: readonly number[] = [],
  ): Promise<BotDocumentEntity | null> {
    const manager = entityManagerOf(tx);
    const documents = manager.getRepository(BotDocumentEntity);
    const previous = await documents.findOneBy({ botId: document.botId });
    // Passages go with their source and document (ON DELETE CASCADE).
    await this.sources.deleteReference(tx, document.botId);
    // The same file already uploaded as a source: the reference document takes its place.
    for (const sourceId of absorbedSourceIds) await this.sources.delete(tx, document.botId, sourceId);
    if (previous) await documents.delete({ id: previous.id });
    const saved = await documents.save(documents.create(document));
    const source = await this.sources.create(tx, {
      botId: document.botId,
      kind: 'file',
      name: document.originalName,
      status: 'ready',
      format: 'pdf',
      pages: document.pageCount,
      chunks: chunks.length,
      bytes: document.sizeBytes,
      storageKey: document.storageKey,
      isReference: true,
    });
    await this.passages.insert(tx, { sourceId: source.id, botId: document.botId, documentId: saved.id }, chunks);
    return previous;
  }

  /** Removes the bot's reference document record (its source was deleted by the caller). */
  async deleteForBot(tx: Transaction, botId: number): Promise<void> {
    const manager = entityManagerOf(tx);
    await manager.getRepository(BotDocumentEntity).delete({ botId });
  }

  /** Full-text search over all of one bot's sources (see PassagesRepository.search). */
  async searchChunks(botId: number, query: string, limit: number): Promise<ChunkMatch[]> {
    const matches = await this.passages.search(botId, query, limit);
    return matches.map((match) => ({ page: match.page, content: match.content }));
  }

  chunkCount(botId: number): Promise<number> {
    return this.passages.countForBot(botId);
  }
}
