import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Handoff to a person (docs/product.md#leads-and-handoff): a conversation a person is handling
 * carries the time the handoff began, and its messages may now be written by that person
 * (role 'agent'). NULL: the bot answers, as before.
 */
export class ConversationHandoff1797900000000 implements MigrationInterface {
  name = 'ConversationHandoff1797900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "conversations" ADD COLUMN "handoff_at" timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "conversations" DROP COLUMN "handoff_at"`);
  }
}
