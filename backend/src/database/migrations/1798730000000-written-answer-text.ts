import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A written answer or correction keeps the text its owner wrote (line breaks included), so the
 * Knowledge tab can open it for editing (docs/product.md#knowledge-sources). Its passages hold
 * the text with whitespace collapsed; written answers stored before this migration get that text
 * back from their passages (their line breaks were not kept anywhere).
 */
export class WrittenAnswerText1798730000000 implements MigrationInterface {
  name = 'WrittenAnswerText1798730000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "bot_sources" ADD COLUMN "text" text`);
    await q.query(`
      UPDATE "bot_sources" s
         SET "text" = (SELECT string_agg(c."content", ' ' ORDER BY c."ordinal") FROM "document_chunks" c
                        WHERE c."source_id" = s."id")
       WHERE s."kind" = 'text'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "bot_sources" DROP COLUMN IF EXISTS "text"`);
  }
}
