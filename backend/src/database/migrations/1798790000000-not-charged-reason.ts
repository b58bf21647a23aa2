import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A ledger row may record an answer that was not charged (the bot could not give it, issue 29,
 * item 5): priced 0 cents, with the reason ('unanswered'); NULL on every charged row.
 */
export class NotChargedReason1798790000000 implements MigrationInterface {
  name = 'NotChargedReason1798790000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "usage_events" ADD COLUMN "not_charged_reason" varchar(32)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "usage_events" DROP COLUMN IF EXISTS "not_charged_reason"`);
  }
}
