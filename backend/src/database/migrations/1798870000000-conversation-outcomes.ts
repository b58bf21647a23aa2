import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A conversation's outcome (docs/product.md#outcomes), decided by a job once the conversation
 * has been quiet for 30 minutes and decided again when it resumed: `outcome_at` older than
 * `last_message_at` means "to be decided". The partial index holds only those rows, so the job
 * finds them without reading the decided ones, however many an account keeps.
 */
export class ConversationOutcomes1798870000000 implements MigrationInterface {
  name = 'ConversationOutcomes1798870000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE "conversations"
         ADD COLUMN "outcome" varchar(16)
           CHECK ("outcome" IN ('resolved', 'handed_off', 'unanswered', 'abandoned', 'rated_down')),
         ADD COLUMN "outcome_at" timestamptz`,
    );
    await q.query(
      `CREATE INDEX "conversations_outcome_due_idx" ON "conversations" ("last_message_at")
         WHERE "outcome_at" IS NULL OR "outcome_at" < "last_message_at"`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "conversations_outcome_due_idx"`);
    await q.query(`ALTER TABLE "conversations" DROP COLUMN "outcome_at", DROP COLUMN "outcome"`);
  }
}
