import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A passage's search vector (~1.5 KB) is kept in the row (compressed) instead of out of line:
 * ranking reads the vector of every passage that matches any question word, and fetching each
 * from the TOAST table dominated the query (bench/retrieval.mjs on 10,000 passages: database CPU
 * p95 88 ms → 30 ms, same results). Existing rows are rewritten so they move in as well.
 */
export class SearchVectorInline1797500000000 implements MigrationInterface {
  name = 'SearchVectorInline1797500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "document_chunks" ALTER COLUMN "search_vector" SET STORAGE MAIN`);
    // Setting the content to itself recomputes the generated vector, stored under the new rule.
    await q.query(`UPDATE "document_chunks" SET "content" = "content"`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "document_chunks" ALTER COLUMN "search_vector" SET STORAGE EXTENDED`);
  }
}
