import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who the visitor says they are, as the host page told the widget (docs/product.md#the-widgets-api-for-host-pages):
 * shown in the owner's inbox, never used to send mail. Deleted with the conversation.
 */
export class VisitorIdentity1798450000000 implements MigrationInterface {
  name = 'VisitorIdentity1798450000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE "conversations" ADD COLUMN "visitor_name" varchar(100) NULL, ADD COLUMN "visitor_email" varchar(254) NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "conversations" DROP COLUMN "visitor_name", DROP COLUMN "visitor_email"`);
  }
}
