import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Websites stay current: a website source refreshes on the schedule its owner picks ('off',
 * 'daily', 'weekly'; `next_refresh_at` is when the next refresh is due, null when none is), and
 * each page it read is remembered in `source_pages` (its content hash and HTTP validators), so a
 * refresh asks for pages conditionally and re-indexes only the pages that changed.
 */
export class KnowledgeRefresh1797000000000 implements MigrationInterface {
  name = 'KnowledgeRefresh1797000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE "bot_sources"
        ADD COLUMN "refresh_schedule" varchar(8) NOT NULL DEFAULT 'off'
          CHECK ("refresh_schedule" IN ('off', 'daily', 'weekly')),
        ADD COLUMN "last_refreshed_at" timestamptz,
        ADD COLUMN "next_refresh_at" timestamptz,
        ADD COLUMN "notice" varchar(500)`);
    await q.query(
      `CREATE INDEX "bot_sources_refresh_due_idx" ON "bot_sources" ("next_refresh_at") WHERE "next_refresh_at" IS NOT NULL`,
    );
    await q.query(`
      CREATE TABLE "source_pages" (
        "id" SERIAL PRIMARY KEY,
        "source_id" integer NOT NULL REFERENCES "bot_sources"("id") ON DELETE CASCADE,
        "url" varchar(2048) NOT NULL,
        "title" varchar(300),
        "content_hash" char(64) NOT NULL,
        "etag" varchar(512),
        "last_modified" varchar(100),
        "chunks" integer NOT NULL DEFAULT 0,
        "bytes" integer NOT NULL DEFAULT 0,
        "fetched_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "source_pages_url_key" UNIQUE ("source_id", "url")
      )`);
    // Website sources read before this migration have passages but no page records: their
    // first refresh re-indexes every page once.
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS "source_pages"`);
    await q.query(`DROP INDEX IF EXISTS "bot_sources_refresh_due_idx"`);
    await q.query(`
      ALTER TABLE "bot_sources"
        DROP COLUMN "refresh_schedule", DROP COLUMN "last_refreshed_at", DROP COLUMN "next_refresh_at",
        DROP COLUMN "notice"`);
  }
}
