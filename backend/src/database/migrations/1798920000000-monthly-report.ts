import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The owner's time zone (null = the browser's) and the monthly report's opt-out on `users`, and
 * `monthly_reports`: one row per account and billing period, claimed before its report is mailed,
 * so the report goes out once across every instance (docs/product.md#monthly-report).
 */
export class MonthlyReport1798920000000 implements MigrationInterface {
  name = 'MonthlyReport1798920000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "users" ADD COLUMN "time_zone" varchar(64) NULL`);
    await q.query(`ALTER TABLE "users" ADD COLUMN "monthly_report" boolean NOT NULL DEFAULT true`);
    await q.query(
      `CREATE TABLE "monthly_reports" (
         "user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
         "period_start" date NOT NULL,
         "status" varchar(16) NOT NULL DEFAULT 'sending' CHECK ("status" IN ('sending', 'sent', 'skipped')),
         "claimed_at" timestamptz NOT NULL DEFAULT now(),
         PRIMARY KEY ("user_id", "period_start")
       )`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS "monthly_reports"`);
    await q.query(`ALTER TABLE "users" DROP COLUMN IF EXISTS "monthly_report"`);
    await q.query(`ALTER TABLE "users" DROP COLUMN IF EXISTS "time_zone"`);
  }
}
