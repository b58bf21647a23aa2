import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The calls a bot's answers made to its actions (docs/product.md#actions), logged with the answer
 * they served so the owner sees each one in the transcript: the action (its name kept if the
 * action is deleted later), the parameters sent, the status, the time, the filtered answer or the
 * failure. They go with their conversation (owner, visitor and retention deletions alike).
 */
export class ActionCalls1798970000000 implements MigrationInterface {
  name = 'ActionCalls1798970000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "action_calls" (
         "id" SERIAL PRIMARY KEY,
         "conversation_id" integer NOT NULL REFERENCES "conversations"("id") ON DELETE CASCADE,
         "message_id" integer NOT NULL REFERENCES "messages"("id") ON DELETE CASCADE,
         "bot_id" integer NOT NULL,
         "action_id" integer REFERENCES "bot_actions"("id") ON DELETE SET NULL,
         "action_name" varchar(64) NOT NULL,
         "parameters" jsonb NOT NULL,
         "status" integer,
         "duration_ms" integer NOT NULL,
         "answer" text,
         "error" text,
         "failed" boolean NOT NULL,
         "created_at" timestamptz NOT NULL
       )`,
    );
    await q.query(`CREATE INDEX "action_calls_conversation_idx" ON "action_calls" ("conversation_id")`);
    // The Actions tab's counters: one action's calls of the last days.
    await q.query(`CREATE INDEX "action_calls_action_idx" ON "action_calls" ("action_id", "created_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS "action_calls"`);
  }
}
