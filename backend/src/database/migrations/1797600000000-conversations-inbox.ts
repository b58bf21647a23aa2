import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The conversations inbox (docs/product.md#conversations). Each answer keeps what the inbox
 * shows beside it: the visitor's rating (last one wins), whether the bot could not answer, and
 * its citations. Each conversation keeps running totals so the list never aggregates messages:
 * it is read newest first by keyset over (last_message_at, id), per owner or per bot, and the
 * "unanswered" and "thumbs down" filters have partial indexes of their own. Messages get a
 * full-text vector (kept in the row, like passages) for the inbox search.
 */
export class ConversationsInbox1797600000000 implements MigrationInterface {
  name = 'ConversationsInbox1797600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE "messages"
        ADD COLUMN "rating" varchar(4) CONSTRAINT "messages_rating_check" CHECK ("rating" IN ('up', 'down')),
        ADD COLUMN "rating_comment" varchar(1000),
        ADD COLUMN "rated_at" timestamptz,
        ADD COLUMN "unanswered" boolean NOT NULL DEFAULT false,
        ADD COLUMN "citations" jsonb,
        ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (to_tsvector('english', left("content", 20000))) STORED`);
    await q.query(`ALTER TABLE "messages" ALTER COLUMN "search_vector" SET STORAGE MAIN`);
    await q.query(`CREATE INDEX "messages_search_idx" ON "messages" USING GIN ("search_vector")`);

    await q.query(`
      ALTER TABLE "conversations"
        ADD COLUMN "last_message_at" timestamptz,
        ADD COLUMN "message_count" integer NOT NULL DEFAULT 0,
        ADD COLUMN "preview" varchar(200),
        ADD COLUMN "unanswered_count" integer NOT NULL DEFAULT 0,
        ADD COLUMN "up_count" integer NOT NULL DEFAULT 0,
        ADD COLUMN "down_count" integer NOT NULL DEFAULT 0`);
    // Totals of the conversations logged so far; the preview is the visitor's first message.
    await q.query(`
      UPDATE "conversations" c SET
        "last_message_at" = COALESCE(m."last_at", c."created_at"),
        "message_count" = COALESCE(m."n", 0),
        "preview" = m."first_question"
      FROM (
        SELECT "conversation_id", max("created_at") AS "last_at", count(*)::int AS "n",
               left((array_agg("content" ORDER BY "id") FILTER (WHERE "role" = 'user'))[1], 200) AS "first_question"
          FROM "messages" GROUP BY "conversation_id"
      ) m
      WHERE m."conversation_id" = c."id"`);
    await q.query(`UPDATE "conversations" SET "last_message_at" = "created_at" WHERE "last_message_at" IS NULL`);
    await q.query(`ALTER TABLE "conversations" ALTER COLUMN "last_message_at" SET NOT NULL`);
    await q.query(`ALTER TABLE "conversations" ALTER COLUMN "last_message_at" SET DEFAULT now()`);

    await q.query(
      `CREATE INDEX "conversations_owner_recent_idx" ON "conversations" ("owner_id", "last_message_at" DESC, "id" DESC)`,
    );
    await q.query(
      `CREATE INDEX "conversations_bot_recent_idx" ON "conversations" ("bot_id", "last_message_at" DESC, "id" DESC)`,
    );
    await q.query(
      `CREATE INDEX "conversations_owner_unanswered_idx" ON "conversations" ("owner_id", "last_message_at" DESC, "id" DESC)
         WHERE "unanswered_count" > 0`,
    );
    await q.query(
      `CREATE INDEX "conversations_owner_negative_idx" ON "conversations" ("owner_id", "last_message_at" DESC, "id" DESC)
         WHERE "down_count" > 0`,
    );
    // The owner's corrections, looked up by question before retrieval.
    await q.query(`ALTER TABLE "bot_sources" ADD COLUMN "question" varchar(1000)`);
    await q.query(`CREATE INDEX "bot_sources_corrections_idx" ON "bot_sources" ("bot_id") WHERE "is_correction"`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "bot_sources_corrections_idx"`);
    await q.query(`ALTER TABLE "bot_sources" DROP COLUMN "question"`);
    for (const index of ['owner_recent', 'bot_recent', 'owner_unanswered', 'owner_negative']) {
      await q.query(`DROP INDEX "conversations_${index}_idx"`);
    }
    await q.query(`
      ALTER TABLE "conversations"
        DROP COLUMN "last_message_at", DROP COLUMN "message_count", DROP COLUMN "preview",
        DROP COLUMN "unanswered_count", DROP COLUMN "up_count", DROP COLUMN "down_count"`);
    await q.query(`DROP INDEX "messages_search_idx"`);
    await q.query(`
      ALTER TABLE "messages"
        DROP COLUMN "rating", DROP COLUMN "rating_comment", DROP COLUMN "rated_at",
        DROP COLUMN "unanswered", DROP COLUMN "citations", DROP COLUMN "search_vector"`);
  }
}
