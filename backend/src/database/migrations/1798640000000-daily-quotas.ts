import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Daily quotas (docs/product.md#quotas) that must hold even when what they count is deleted: a
 * bot's leads (a visitor may delete their conversation and its lead, then leave another) and an
 * account's passages sent to the embeddings model (a source may be deleted and added again).
 * One row per quota, subject (a bot's or an account's id) and UTC day, counted up in the same
 * transaction as what it admits; no foreign key, since a row outlives its subject for the day.
 */
export class DailyQuotas1798640000000 implements MigrationInterface {
  name = 'DailyQuotas1798640000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "daily_quota_usage" (
        "quota" varchar(32) NOT NULL,
        "subject_id" integer NOT NULL,
        "day" date NOT NULL,
        "used" integer NOT NULL DEFAULT 0,
        PRIMARY KEY ("quota", "subject_id", "day")
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "daily_quota_usage"`);
  }
}
