import type { DocumentResponse } from '@botsmith/contract';
import { HttpStatus, Injectable } from '@nestjs/common';
import type { Transaction } from '../../database/transaction.js';
import { AppError } from '../../common/app-error.js';
import type { BotFilesPort } from '../bots/bot-files.port.js';
import type { BotDocumentEntity } from './bot-document.entity.js';
import { chunkPages, cleanText, type Chunk } from './chunking.js';
import { DocumentsRepository, type ChunkMatch, type NewDocument } from './documents.repository.js';
import { extractPdfText, UnreadablePdfError } from './pdf-text.js';
import { SourcesRepository } from './sources.repository.js';

export type { DocumentResponse };

export interface PreparedDocument {
  pageCount: number;
  chunks: Chunk[];
}

/** The longest query searchChunks looks at; a visitor's message can be long. */
const SEARCH_QUERY_MAX_CHARS = 1000;
const SEARCH_LIMIT_MAX = 20;

/** A bot's reference document as other modules see it (a plain value, not the entity). */
export type StoredDocument = Readonly<NewDocument>;

function toStoredDocument(document: BotDocumentEntity): StoredDocument {
  const { botId, originalName, storageKey, filePath, sizeBytes, pageCount } = document;
  return { botId, originalName, storageKey, filePath, sizeBytes, pageCount };
}

/**
 * A bot's reference document: its text, split into passages and searchable with PostgreSQL
 * full-text search. The chat module retrieves from it with {@link searchChunks}.
 */
@Injectable()
export class DocumentsService implements BotFilesPort {
  constructor(
    private readonly documents: DocumentsRepository,
    private readonly sources: SourcesRepository,
  ) {}

  /**
   * The passages of `botId`'s document that best match `query` (websearch syntax, English
   * stemming), best first, as `{page, content}`. An empty query or a bot without a document
   * gives `[]`. `limit` is clamped to 1-20.
   */
  async searchChunks(botId: number, query: string, limit = 5): Promise<ChunkMatch[]> {
    // Visitor text can hold NUL and control characters, which PostgreSQL refuses in a query.
    const text = cleanText(String(query ?? '').slice(0, SEARCH_QUERY_MAX_CHARS));
    if (!text) return [];
    const bounded = Math.min(Math.max(Math.trunc(limit) || 1, 1), SEARCH_LIMIT_MAX);
    return this.documents.searchChunks(botId, text, bounded);
  }

  /** Extracts and splits a PDF's text; 422 with a sentence the owner can act on when it has none. */
  async prepare(pdf: Buffer): Promise<PreparedDocument> {
    let extracted;
    try {
      extracted = await extractPdfText(pdf);
    } catch (error) {
      if (error instanceof UnreadablePdfError && error.reason === 'password') {
        throw new AppError(
          HttpStatus.UNPROCESSABLE_ENTITY,
          'PDF_ENCRYPTED',
          'This PDF is password-protected. Please upload a copy without a password.',
        );
      }
      if (error instanceof UnreadablePdfError && error.reason === 'too-complex') {
        throw new AppError(
          HttpStatus.UNPROCESSABLE_ENTITY,
          'PDF_TOO_COMPLEX',
          'This PDF needs too much memory or time to read. Please upload a smaller or simpler PDF.',
        );
      }
      if (error instanceof UnreadablePdfError) {
        throw new AppError(
          HttpStatus.UNPROCESSABLE_ENTITY,
          'PDF_UNREADABLE',
          'This PDF could not be read. It may be damaged or incomplete.',
        );
      }
      throw error;
    }
    const chunks = chunkPages(extracted.pages);
    if (chunks.length === 0) {
      throw new AppError(
        HttpStatus.UNPROCESSABLE_ENTITY,
        'PDF_NO_TEXT',
        'This PDF has no extractable text. Please upload a text-based PDF.',
      );
    }
    return { pageCount: extracted.pageCount, chunks };
  }

  /**
   * Inside the caller's transaction (which holds the bot's row lock). Returns the replaced
   * document. `absorbedSourceIds`: file sources holding the same file, removed so the bot keeps
   * one copy (docs/product.md#knowledge-sources).
   */
  async replace(
    tx: Transaction,
    document: NewDocument,
    chunks: readonly Chunk[],
    absorbedSourceIds: readonly number[] = [],
  ): Promise<StoredDocument | null> {
    const replaced = await this.documents.replaceForBot(tx, document, chunks, absorbedSourceIds);
    return replaced && toStoredDocument(replaced);
  }

  /** The bot's PDF file sources of `bytes` bytes (candidates for the same file as a new reference document). */
  pdfSourcesOfSize(botId: number, bytes: number): Promise<{ id: number; storageKey: string | null }[]> {
    return this.sources.pdfSourcesOfSize(botId, bytes);
  }

  async documentsOf(botIds: number[]): Promise<Map<number, DocumentResponse>> {
    const documents = await this.documents.findForBots(botIds);
    return new Map(documents.map((document) => [document.botId, this.toResponse(document)]));
  }

  async findOwnedByStorageKey(ownerId: number, storageKey: string): Promise<StoredDocument | null> {
    const document = await this.documents.findOwnedByStorageKey(ownerId, storageKey);
    return document && toStoredDocument(document);
  }

  storageKeysOfOwner(ownerId: number, tx: Transaction): Promise<string[]> {
    return this.documents.storageKeysOfOwner(ownerId, tx);
  }

  storageKeysOfBot(botId: number, tx: Transaction): Promise<string[]> {
    return this.documents.storageKeysOfBot(botId, tx);
  }

  /** Removes the reference document record of a bot whose reference source was deleted. */
  deleteForBot(tx: Transaction, botId: number): Promise<void> {
    return this.documents.deleteForBot(tx, botId);
  }

  chunkCount(botId: number): Promise<number> {
    return this.documents.chunkCount(botId);
  }

  toResponse(document: BotDocumentEntity): DocumentResponse {
    return { originalName: document.originalName, filePath: document.filePath };
  }
}
