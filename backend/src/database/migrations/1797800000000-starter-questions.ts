import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Starter questions per bot (docs/product.md#starter-questions): none for existing bots. */
export class StarterQuestions1797800000000 implements MigrationInterface {
  name = 'StarterQuestions1797800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "bots" ADD COLUMN "starter_questions" jsonb NOT NULL DEFAULT '[]'::jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "bots" DROP COLUMN "starter_questions"`);
  }
}
