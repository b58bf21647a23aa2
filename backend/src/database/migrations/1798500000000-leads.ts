import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lead capture (docs/product.md#leads-and-handoff). Each bot's `lead_capture` setting, on for
 * every existing bot as for a new one (LEAD_CAPTURE_DEFAULTS): a bot nobody reconfigures loses no
 * visitor at its budget. The house demo bot takes no leads: nobody reads the system account's mail.
 *
 * `leads`: one row per form a visitor sent, with the visitor's conversation (deleted with it).
 * The bot's name is kept, as for conversations, so a deleted bot's leads still say whose they were.
 * Read newest first per owner or per bot by keyset over (created_at, id).
 */
export class Leads1798500000000 implements MigrationInterface {
  name = 'Leads1798500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE "bots" ADD COLUMN "lead_capture" jsonb NOT NULL DEFAULT
        '{"enabled": true, "fields": ["email"], "offerWhen": ["cap", "request"], "notifyEmails": [], "thankYouText": ""}'::jsonb`,
    );
    await q.query(
      `UPDATE "bots" SET "lead_capture" = jsonb_set("lead_capture", '{enabled}', 'false'::jsonb)
        WHERE "owner_id" IN (SELECT "id" FROM "users" WHERE "is_system")`,
    );
    await q.query(`
      CREATE TABLE "leads" (
        "id" SERIAL PRIMARY KEY,
        "owner_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
        "bot_id" integer REFERENCES "bots"("id") ON DELETE SET NULL,
        "bot_name" varchar(100) NOT NULL,
        "conversation_id" integer NOT NULL REFERENCES "conversations"("id") ON DELETE CASCADE,
        "name" varchar(100),
        "email" varchar(254),
        "phone" varchar(40),
        "message" varchar(2000),
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX "leads_owner_recent_idx" ON "leads" ("owner_id", "created_at" DESC, "id" DESC)`);
    await q.query(`CREATE INDEX "leads_bot_recent_idx" ON "leads" ("bot_id", "created_at" DESC, "id" DESC)`);
    await q.query(`CREATE INDEX "leads_conversation_idx" ON "leads" ("conversation_id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "leads"`);
    await q.query(`ALTER TABLE "bots" DROP COLUMN "lead_capture"`);
  }
}
