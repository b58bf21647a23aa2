import { HttpStatus, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppError } from '../../common/app-error.js';
import type { BotDocumentEntity } from './bot-document.entity.js';
import { chunkPages, cleanText, type Chunk } from './chunking.js';
import { DocumentsRepository, type ChunkMatch, type NewDocument } from './documents.repository.js';
import { extractPdfText, UnreadablePdfError } from './pdf-text.js';

export interface DocumentResponse {
  originalName: string;
  filePath: string;
}

export interface PreparedDocument {
  pageCount: number;
  chunks: Chunk[];
}

/** The longest query searchChunks looks at; a visitor's message can be long. */
const SEARCH_QUERY_MAX_CHARS = 1000;
const SEARCH_LIMIT_MAX = 20;

/**
 * A bot's reference document: its text, split into passages and searchable with PostgreSQL
 * full-text search. The chat module retrieves from it with {@link searchChunks}.
 */
@Injectable()
export class DocumentsService {
  constructor(private readonly documents: DocumentsRepository) {}

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

  /** Inside the caller's transaction (which holds the bot's row lock). Returns the replaced document. */
  replace(manager: EntityManager, document: NewDocument, chunks: readonly Chunk[]): Promise<BotDocumentEntity | null> {
    return this.documents.replaceForBot(manager, document, chunks);
  }

  findForBot(botId: number, manager?: EntityManager): Promise<BotDocumentEntity | null> {
    return this.documents.findForBot(botId, manager);
  }

  async responsesForBots(botIds: number[]): Promise<Map<number, DocumentResponse>> {
    const documents = await this.documents.findForBots(botIds);
    return new Map(documents.map((document) => [document.botId, this.toResponse(document)]));
  }

  findOwnedByStorageKey(ownerId: number, storageKey: string): Promise<BotDocumentEntity | null> {
    return this.documents.findOwnedByStorageKey(ownerId, storageKey);
  }

  storageKeysOfOwner(ownerId: number, manager: EntityManager): Promise<string[]> {
    return this.documents.storageKeysOfOwner(ownerId, manager);
  }

  chunkCount(botId: number): Promise<number> {
    return this.documents.chunkCount(botId);
  }

  toResponse(document: BotDocumentEntity): DocumentResponse {
    return { originalName: document.originalName, filePath: document.filePath };
  }
}
