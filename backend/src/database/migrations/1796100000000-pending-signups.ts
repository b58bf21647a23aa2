import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each signup of an unverified address becomes its own pending signup: its own verification
 * link, the password submitted with it, and a digest of the pre-auth cookie of the browser that
 * submitted it. Verifying one sets the account's password to that signup's and ends the others.
 * Verification links still usable at upgrade time move over with the account's current password
 * and no browser, so they keep working through the password step.
 */
export class PendingSignups1796100000000 implements MigrationInterface {
  name = 'PendingSignups1796100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "pending_signups" (
        "id" SERIAL PRIMARY KEY,
        "user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
        "token_hash" char(64) NOT NULL,
        "password_hash" text NOT NULL,
        "browser_hash" char(64),
        "expires_at" timestamptz NOT NULL,
        "ended_at" timestamptz,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX "pending_signups_token_key" ON "pending_signups" ("token_hash")`);
    await q.query(`CREATE INDEX "pending_signups_user_idx" ON "pending_signups" ("user_id")`);
    await q.query(`
      INSERT INTO "pending_signups" ("user_id", "token_hash", "password_hash", "browser_hash", "expires_at", "created_at")
      SELECT t."user_id", t."token_hash", u."password_hash", NULL, t."expires_at", t."created_at"
      FROM "auth_tokens" t JOIN "users" u ON u."id" = t."user_id"
      WHERE t."purpose" = 'verify-email' AND t."used_at" IS NULL AND t."expires_at" > now()
        AND u."deleted_at" IS NULL AND u."email_verified_at" IS NULL`);
    await q.query(`DELETE FROM "auth_tokens" WHERE "purpose" = 'verify-email'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      INSERT INTO "auth_tokens" ("user_id", "purpose", "token_hash", "expires_at", "used_at", "created_at")
      SELECT "user_id", 'verify-email', "token_hash", "expires_at", "ended_at", "created_at" FROM "pending_signups"`);
    await q.query(`DROP TABLE IF EXISTS "pending_signups"`);
  }
}
