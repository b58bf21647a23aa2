import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Budget alerts. `users.spend_alert_dollars` is the account spend the owner wants to hear about
 * (a mail at each 50 % step of it every period; 0 = none). `budget_alerts` records each alert
 * sent: one row per owner, bot (NULL for the account), billing period and step. Its unique index
 * is what makes an alert go out once per period even with many API instances: whoever inserts
 * the row sends the mail.
 */
export class BudgetAlerts1796300000000 implements MigrationInterface {
  name = 'BudgetAlerts1796300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "users" ADD COLUMN "spend_alert_dollars" integer NOT NULL DEFAULT 20`);
    await q.query(
      `ALTER TABLE "users" ADD CONSTRAINT "users_spend_alert_dollars_check" CHECK ("spend_alert_dollars" >= 0)`,
    );
    await q.query(`
      CREATE TABLE "budget_alerts" (
        "id" SERIAL PRIMARY KEY,
        "owner_id" integer NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE,
        "bot_id" integer,
        "period_start" date NOT NULL,
        "step" integer NOT NULL CHECK ("step" > 0),
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE UNIQUE INDEX "budget_alerts_once_key" ON "budget_alerts" ("owner_id", (COALESCE("bot_id", 0)), "period_start", "step")`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS "budget_alerts"`);
    await q.query(`ALTER TABLE "users" DROP COLUMN IF EXISTS "spend_alert_dollars"`);
  }
}
