import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-owner daily limits on knowledge work an owner asks for (docs/product.md#knowledge-sources):
 * website sources added and refreshes requested, per UTC day. A count must hold when what it
 * counts is deleted (a website deleted and added again is two), so it is kept apart from
 * `bot_sources`: one row per owner and day, counted up in the transaction that adds the source
 * or queues the refresh, so a refused or failed request counts nothing. No foreign key: a row
 * outlives the account for the rest of its day, and an owner's older days are removed as a new
 * one starts.
 */
export class SourceDailyRequests1798610000000 implements MigrationInterface {
  name = 'SourceDailyRequests1798610000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "source_daily_requests" (
        "owner_id" integer NOT NULL,
        "day" date NOT NULL,
        "websites" integer NOT NULL DEFAULT 0,
        "refreshes" integer NOT NULL DEFAULT 0,
        PRIMARY KEY ("owner_id", "day")
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "source_daily_requests"`);
  }
}
