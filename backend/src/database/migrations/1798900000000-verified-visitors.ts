import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Verified visitors (docs/product.md#verified-visitors): each bot's identity secret (sealed, see
 * IdentitySecretBox; null until the owner makes one), whether a conversation's visitor was vouched
 * for by the owner's server, and the identity proofs refused per bot and day (for the dashboard).
 */
export class VerifiedVisitors1798900000000 implements MigrationInterface {
  name = 'VerifiedVisitors1798900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "bots" ADD COLUMN "identity_secret" varchar(200) NULL`);
    await q.query(`ALTER TABLE "conversations" ADD COLUMN "visitor_verified" boolean NOT NULL DEFAULT false`);
    await q.query(
      `CREATE TABLE "identity_refusals" (
         "bot_id" integer NOT NULL REFERENCES "bots"("id") ON DELETE CASCADE,
         "day" date NOT NULL,
         "count" integer NOT NULL DEFAULT 0,
         PRIMARY KEY ("bot_id", "day")
       )`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS "identity_refusals"`);
    await q.query(`ALTER TABLE "conversations" DROP COLUMN IF EXISTS "visitor_verified"`);
    await q.query(`ALTER TABLE "bots" DROP COLUMN IF EXISTS "identity_secret"`);
  }
}
