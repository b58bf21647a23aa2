import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * "Waiting for you" in the inbox (docs/product.md#conversations): an owner's handed-off
 * conversations, newest first, in an index of their own, so the 'waiting' filter and the
 * sidebar's count read only those (few) rows, then the newest message of each through
 * messages_conversation_idx, however many conversations and messages the owner has.
 */
export class InboxWaiting1798750000000 implements MigrationInterface {
  name = 'InboxWaiting1798750000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX "conversations_owner_handoff_idx" ON "conversations" ("owner_id", "last_message_at" DESC, "id" DESC)
         WHERE "handoff_at" IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "conversations_owner_handoff_idx"`);
  }
}
