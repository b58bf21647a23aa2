import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Conversation retention (docs/product.md#retention-and-visitor-privacy): each account keeps its
 * visitors' conversations 30, 90 or 365 days after their last message, or forever (NULL). Existing
 * accounts get the default, 365, like new ones. The daily retention job finds old conversations
 * by `last_message_at`, which `conversations_owner_recent_idx` already orders per owner.
 */
export class ConversationRetention1797700000000 implements MigrationInterface {
  name = 'ConversationRetention1797700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "users" ADD COLUMN "conversation_retention_days" integer DEFAULT 365`);
    await q.query(
      `ALTER TABLE "users" ADD CONSTRAINT "users_conversation_retention_days_check"
         CHECK ("conversation_retention_days" IN (30, 90, 365))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "users" DROP COLUMN IF EXISTS "conversation_retention_days"`);
  }
}
