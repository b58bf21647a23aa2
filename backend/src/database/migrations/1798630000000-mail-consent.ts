import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Mail only to people who asked for it (docs/product.md#mail-consent).
 *
 * `mail_consents`: an address that agreed to our mail, or was asked to. `lead_notice`: a bot's
 * lead address other than the owner's account address (one row per owner and address);
 * `owner_reply`: the address a visitor left in a conversation, before an owner's reply is mailed
 * there (one row per conversation and address). Only the SHA-256 of the mailed token is kept;
 * `requests` counts the requests mailed to a lead address (a bounded number, ever).
 *
 * The mails an owner triggered per UTC day (MAIL_DAILY_LIMIT_PER_ACCOUNT) are counted in
 * `daily_quota_usage` (migration 1798640000000), with every other daily quota.
 *
 * `lead_notice_windows` and `lead_digest_items`: lead notices to one address within 10 minutes;
 * past the fifth, the leads wait for one digest at the window's end (claimed once by any instance).
 */
export class MailConsent1798630000000 implements MigrationInterface {
  name = 'MailConsent1798630000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "mail_consents" (
        "id" SERIAL PRIMARY KEY,
        "owner_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
        "kind" varchar(16) NOT NULL CHECK ("kind" IN ('lead_notice', 'owner_reply')),
        "email" varchar(254) NOT NULL,
        "conversation_id" integer REFERENCES "conversations"("id") ON DELETE CASCADE,
        "token_hash" char(64) NOT NULL UNIQUE,
        "requested_at" timestamptz,
        "requests" integer NOT NULL DEFAULT 0,
        "confirmed_at" timestamptz,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CHECK (("kind" = 'owner_reply') = ("conversation_id" IS NOT NULL))
      )`);
    await q.query(
      `CREATE UNIQUE INDEX "mail_consents_lead_notice_key" ON "mail_consents" ("owner_id", "email") WHERE "kind" = 'lead_notice'`,
    );
    await q.query(
      `CREATE UNIQUE INDEX "mail_consents_owner_reply_key" ON "mail_consents" ("conversation_id", "email") WHERE "kind" = 'owner_reply'`,
    );
    await q.query(`
      CREATE TABLE "lead_notice_windows" (
        "owner_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
        "email" varchar(254) NOT NULL,
        "window_start" timestamptz NOT NULL,
        "notices" integer NOT NULL,
        PRIMARY KEY ("owner_id", "email")
      )`);
    await q.query(`
      CREATE TABLE "lead_digest_items" (
        "id" SERIAL PRIMARY KEY,
        "owner_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
        "email" varchar(254) NOT NULL,
        "lead_id" integer NOT NULL REFERENCES "leads"("id") ON DELETE CASCADE,
        "due_at" timestamptz NOT NULL,
        "sent_at" timestamptz
      )`);
    await q.query(`CREATE INDEX "lead_digest_items_due_idx" ON "lead_digest_items" ("due_at") WHERE "sent_at" IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "lead_digest_items"`);
    await q.query(`DROP TABLE "lead_notice_windows"`);
    await q.query(`DROP TABLE "mail_consents"`);
  }
}
