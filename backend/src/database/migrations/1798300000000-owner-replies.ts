import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Owner replies (docs/product.md#owner-replies): the name visitors see on the owner's replies is
 * an account setting (NULL: the default, 'Support'), and each agent message keeps the name it was
 * shown with, so renaming later does not rewrite what visitors already read. The messages' role
 * check admits 'agent' (the role was declared with the handoff, the check was not widened then).
 */
export class OwnerReplies1798300000000 implements MigrationInterface {
  name = 'OwnerReplies1798300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "users" ADD COLUMN "agent_name" varchar(60)`);
    await q.query(`ALTER TABLE "messages" ADD COLUMN "agent_name" varchar(60)`);
    await q.query(`ALTER TABLE "messages" DROP CONSTRAINT "messages_role_check"`);
    await q.query(
      `ALTER TABLE "messages" ADD CONSTRAINT "messages_role_check" CHECK ("role" IN ('user', 'assistant', 'error', 'agent'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM "messages" WHERE "role" = 'agent'`);
    await q.query(`ALTER TABLE "messages" DROP CONSTRAINT "messages_role_check"`);
    await q.query(
      `ALTER TABLE "messages" ADD CONSTRAINT "messages_role_check" CHECK ("role" IN ('user', 'assistant', 'error'))`,
    );
    await q.query(`ALTER TABLE "messages" DROP COLUMN "agent_name"`);
    await q.query(`ALTER TABLE "users" DROP COLUMN "agent_name"`);
  }
}
