import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { entityManagerOf, type Transaction } from '../../database/transaction.js';
import { BotSourceEntity } from './bot-source.entity.js';

/** One page of a website source as it was last read: what a refresh compares against. */
export interface StoredPage {
  url: string;
  title: string | null;
  contentHash: string;
  etag: string | null;
  lastModified: string | null;
  chunks: number;
  bytes: number;
}

/** A page as the owner's list shows it (GET /api/bots/{id}/sources/{sourceId}/pages). */
export interface ListedPage {
  id: number;
  url: string;
  title: string | null;
  chunks: number;
  bytes: number;
  readAt: Date;
}

/** Lengths of the `source_pages` columns (and of `document_chunks.page_url` / `page_title`). */
export const PAGE_URL_MAX = 2048;
export const PAGE_TITLE_MAX = 300;
const ETAG_MAX = 512;
const LAST_MODIFIED_MAX = 100;

/** The only place that queries `source_pages`: the pages a website source holds. */
@Injectable()
export class SourcePagesRepository {
  constructor(@InjectRepository(BotSourceEntity) private readonly sources: Repository<BotSourceEntity>) {}

  async listForSource(sourceId: number): Promise<StoredPage[]> {
    const rows: {
      url: string;
      title: string | null;
      content_hash: string;
      etag: string | null;
      last_modified: string | null;
      chunks: number;
      bytes: number;
    }[] = await this.sources.query(
      `SELECT url, title, content_hash, etag, last_modified, chunks, bytes FROM source_pages
        WHERE source_id = $1 ORDER BY id`,
      [sourceId],
    );
    return rows.map((row) => ({
      url: row.url,
      title: row.title,
      contentHash: row.content_hash.trim(),
      etag: row.etag,
      lastModified: row.last_modified,
      chunks: row.chunks,
      bytes: row.bytes,
    }));
  }

  /**
   * One page of the source's pages for its owner's list, in the order they were first read:
   * those after page id `afterId` (0 for the first), at most `limit`.
   */
  async pageForOwner(sourceId: number, afterId: number, limit: number): Promise<ListedPage[]> {
    const rows: { id: number; url: string; title: string | null; chunks: number; bytes: number; fetched_at: Date }[] =
      await this.sources.query(
        `SELECT id, url, title, chunks, bytes, fetched_at FROM source_pages
          WHERE source_id = $1 AND id > $2 ORDER BY id LIMIT $3`,
        [sourceId, afterId, limit],
      );
    return rows.map((row) => ({
      id: row.id,
      url: row.url,
      title: row.title,
      chunks: row.chunks,
      bytes: row.bytes,
      readAt: new Date(row.fetched_at),
    }));
  }

  /** Records a page read now (new or changed), inside the caller's transaction. */
  async upsert(tx: Transaction, sourceId: number, page: StoredPage): Promise<void> {
    const manager = entityManagerOf(tx);
    await manager.query(
      `INSERT INTO source_pages (source_id, url, title, content_hash, etag, last_modified, chunks, bytes, fetched_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now())
       ON CONFLICT (source_id, url) DO UPDATE
         SET title = EXCLUDED.title, content_hash = EXCLUDED.content_hash, etag = EXCLUDED.etag,
             last_modified = EXCLUDED.last_modified, chunks = EXCLUDED.chunks, bytes = EXCLUDED.bytes,
             fetched_at = now()`,
      [
        sourceId,
        page.url.slice(0, PAGE_URL_MAX),
        page.title?.slice(0, PAGE_TITLE_MAX) ?? null,
        page.contentHash,
        page.etag?.slice(0, ETAG_MAX) ?? null,
        page.lastModified?.slice(0, LAST_MODIFIED_MAX) ?? null,
        page.chunks,
        page.bytes,
      ],
    );
  }

  /** A page read again and found unchanged: only its validators and read time move. */
  async touch(
    tx: Transaction,
    sourceId: number,
    url: string,
    validators: { etag: string | null; lastModified: string | null },
  ): Promise<void> {
    const manager = entityManagerOf(tx);
    await manager.query(
      `UPDATE source_pages SET etag = $3, last_modified = $4, fetched_at = now() WHERE source_id = $1 AND url = $2`,
      [
        sourceId,
        url.slice(0, PAGE_URL_MAX),
        validators.etag?.slice(0, ETAG_MAX) ?? null,
        validators.lastModified?.slice(0, LAST_MODIFIED_MAX) ?? null,
      ],
    );
  }

  async delete(tx: Transaction, sourceId: number, url: string): Promise<void> {
    const manager = entityManagerOf(tx);
    await manager.query(`DELETE FROM source_pages WHERE source_id = $1 AND url = $2`, [
      sourceId,
      url.slice(0, PAGE_URL_MAX),
    ]);
  }

  async deleteForSource(tx: Transaction, sourceId: number): Promise<void> {
    const manager = entityManagerOf(tx);
    await manager.query(`DELETE FROM source_pages WHERE source_id = $1`, [sourceId]);
  }

  /** The source's totals as its pages now stand: pages, their passages and their text bytes. */
  async totals(tx: Transaction, sourceId: number): Promise<{ pages: number; chunks: number; bytes: number }> {
    const manager = entityManagerOf(tx);
    const [row]: { pages: number; chunks: number; bytes: string | number }[] = await manager.query(
      `SELECT count(*)::int AS pages,
              (SELECT count(*)::int FROM document_chunks WHERE source_id = $1) AS chunks,
              COALESCE(SUM(bytes), 0)::bigint AS bytes
         FROM source_pages WHERE source_id = $1`,
      [sourceId],
    );
    return { pages: row?.pages ?? 0, chunks: row?.chunks ?? 0, bytes: Number(row?.bytes ?? 0) };
  }
}
