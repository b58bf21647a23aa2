import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A bot's knowledge becomes many sources (files, a website, written answers), each with its own
 * passages. The one reference PDF of a bot (`bot_documents`) becomes a ready source of kind
 * 'file' flagged `is_reference`, and its passages are attached to that source, so existing bots
 * keep answering from it. Extraction jobs live on the source row itself (`job_*` columns): a
 * source in status 'processing' whose lease is free or expired is work any instance may claim.
 */
export class KnowledgeSources1796700000000 implements MigrationInterface {
  name = 'KnowledgeSources1796700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "bot_sources" (
        "id" SERIAL PRIMARY KEY,
        "bot_id" integer NOT NULL REFERENCES "bots"("id") ON DELETE CASCADE,
        "kind" varchar(16) NOT NULL CHECK ("kind" IN ('file', 'website', 'text')),
        "name" varchar(255) NOT NULL,
        "status" varchar(16) NOT NULL CHECK ("status" IN ('processing', 'ready', 'failed')),
        "error" varchar(500),
        "format" varchar(16) CHECK ("format" IN ('pdf', 'docx', 'txt', 'md', 'html', 'csv')),
        "pages" integer,
        "chunks" integer NOT NULL DEFAULT 0,
        "bytes" integer NOT NULL DEFAULT 0,
        "url" varchar(2048),
        "storage_key" varchar(255),
        "is_reference" boolean NOT NULL DEFAULT false,
        "is_correction" boolean NOT NULL DEFAULT false,
        "job_token" uuid,
        "job_lease_until" timestamptz,
        "job_attempts" integer NOT NULL DEFAULT 0,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX "bot_sources_bot_idx" ON "bot_sources" ("bot_id", "id")`);
    // POST /api/upload/update-document replaces the bot's one "reference document" (docs/product.md#files).
    await q.query(`CREATE UNIQUE INDEX "bot_sources_reference_key" ON "bot_sources" ("bot_id") WHERE "is_reference"`);
    await q.query(`CREATE INDEX "bot_sources_jobs_idx" ON "bot_sources" ("id") WHERE "status" = 'processing'`);

    await q.query(
      `ALTER TABLE "document_chunks" ADD COLUMN "source_id" integer REFERENCES "bot_sources"("id") ON DELETE CASCADE`,
    );
    await q.query(`
      INSERT INTO "bot_sources"
        ("bot_id", "kind", "name", "status", "format", "pages", "chunks", "bytes", "storage_key", "is_reference",
         "created_at", "updated_at")
      SELECT d."bot_id", 'file', d."original_name", 'ready', 'pdf', d."page_count",
             (SELECT count(*)::int FROM "document_chunks" c WHERE c."document_id" = d."id"),
             d."size_bytes", d."storage_key", true, d."created_at", d."created_at"
        FROM "bot_documents" d`);
    await q.query(`
      UPDATE "document_chunks" c SET "source_id" = s."id"
        FROM "bot_documents" d JOIN "bot_sources" s ON s."bot_id" = d."bot_id" AND s."is_reference"
       WHERE c."document_id" = d."id"`);
    await q.query(`ALTER TABLE "document_chunks" ALTER COLUMN "source_id" SET NOT NULL`);
    // Passages of other sources have no reference document.
    await q.query(`ALTER TABLE "document_chunks" ALTER COLUMN "document_id" DROP NOT NULL`);
    await q.query(`CREATE INDEX "document_chunks_source_idx" ON "document_chunks" ("source_id", "ordinal")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM "document_chunks" WHERE "document_id" IS NULL`);
    await q.query(`DROP INDEX IF EXISTS "document_chunks_source_idx"`);
    await q.query(`ALTER TABLE "document_chunks" ALTER COLUMN "document_id" SET NOT NULL`);
    await q.query(`ALTER TABLE "document_chunks" DROP COLUMN "source_id"`);
    await q.query(`DROP TABLE IF EXISTS "bot_sources"`);
  }
}
