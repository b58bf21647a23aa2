import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whether visitors see the model's name under the widget's input (docs/product.md#embedded-widget):
 * off for every bot, the owner turns it on in the edit-bot dialog.
 */
export class ShowModelLabel1798780000000 implements MigrationInterface {
  name = 'ShowModelLabel1798780000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "bots" ADD COLUMN "show_model_label" boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "bots" DROP COLUMN IF EXISTS "show_model_label"`);
  }
}
