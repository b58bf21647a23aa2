import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Passage vectors for hybrid retrieval (docs/architecture.md, "Retrieval"). Where the database
 * offers pgvector (PGlite ships it; a server may have the package) the vectors are a `vector`
 * column ranked by the database; elsewhere (Debian's PostgreSQL 15 has no pgvector package) they
 * are float32 bytes that the application scans with an exact cosine. The column's type is how
 * the application learns which, once at start. A source remembers which model its passages were
 * embedded with, and its failed attempts, so embedding is retried apart from text extraction.
 */
export class PassageEmbeddings1797100000000 implements MigrationInterface {
  name = 'PassageEmbeddings1797100000000';

  async up(q: QueryRunner): Promise<void> {
    const vectorType = (await this.createVectorExtension(q)) ? 'vector' : 'bytea';
    await q.query(
      `CREATE TABLE "passage_embeddings" (
         "chunk_id" integer PRIMARY KEY REFERENCES "document_chunks"("id") ON DELETE CASCADE,
         "bot_id" integer NOT NULL,
         "model" varchar(200) NOT NULL,
         "embedding" ${vectorType} NOT NULL
       )`,
    );
    await q.query(
      `CREATE INDEX "passage_embeddings_bot_model_idx" ON "passage_embeddings" ("bot_id", "model", "chunk_id")`,
    );
    await q.query(
      `ALTER TABLE "bot_sources"
         ADD COLUMN "embedded_model" varchar(200),
         ADD COLUMN "embed_attempts" integer NOT NULL DEFAULT 0,
         ADD COLUMN "embed_retry_at" timestamptz,
         ADD COLUMN "embed_error" varchar(500)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE "bot_sources" DROP COLUMN "embedded_model", DROP COLUMN "embed_attempts",
         DROP COLUMN "embed_retry_at", DROP COLUMN "embed_error"`,
    );
    await q.query(`DROP TABLE "passage_embeddings"`);
  }

  /**
   * Creates pgvector when the server has it. Creating an extension may need rights the
   * application's role lacks: then the vectors are bytes, as without the package.
   */
  private async createVectorExtension(q: QueryRunner): Promise<boolean> {
    const available = (await q.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`)) as unknown[];
    if (available.length === 0) return false;
    await q.query('SAVEPOINT botsmith_vector');
    try {
      await q.query('CREATE EXTENSION IF NOT EXISTS vector');
      await q.query('RELEASE SAVEPOINT botsmith_vector');
      return true;
    } catch {
      await q.query('ROLLBACK TO SAVEPOINT botsmith_vector');
      return false;
    }
  }
}
