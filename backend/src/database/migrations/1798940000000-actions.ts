import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Actions (docs/product.md#actions): a bot's HTTP actions. `headers` holds `{name, sealed}` pairs,
 * each value sealed (SecretBox) and never sent back. A name is unique per bot: the model calls an
 * action by it.
 */
export class Actions1798940000000 implements MigrationInterface {
  name = 'Actions1798940000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "bot_actions" (
         "id" SERIAL PRIMARY KEY,
         "bot_id" integer NOT NULL REFERENCES "bots"("id") ON DELETE CASCADE,
         "name" varchar(64) NOT NULL,
         "description" text NOT NULL,
         "parameters" jsonb NOT NULL,
         "method" varchar(4) NOT NULL,
         "url" text NOT NULL,
         "headers" jsonb NOT NULL DEFAULT '[]',
         "visitor_fields" jsonb NOT NULL DEFAULT '[]',
         "requires_verified_visitor" boolean NOT NULL DEFAULT true,
         "timeout_ms" integer NOT NULL DEFAULT 8000,
         "answer_fields" jsonb NOT NULL,
         "created_at" timestamptz NOT NULL DEFAULT now(),
         "updated_at" timestamptz NOT NULL DEFAULT now(),
         CONSTRAINT "UQ_bot_actions_name" UNIQUE ("bot_id", "name")
       )`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS "bot_actions"`);
  }
}
