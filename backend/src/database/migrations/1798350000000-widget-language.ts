import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The widget's own texts in the visitor's language (docs/product.md#widget-languages): 'auto' for every bot. */
export class WidgetLanguage1798350000000 implements MigrationInterface {
  name = 'WidgetLanguage1798350000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "bots" ADD COLUMN "widget_language" varchar(8) NOT NULL DEFAULT 'auto'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "bots" DROP COLUMN "widget_language"`);
  }
}
