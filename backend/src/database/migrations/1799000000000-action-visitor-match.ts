import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An action's owner check (docs/product.md#actions): `{pointer, field}`, a JSON pointer into the
 * API's answer whose value must be the verified visitor's e-mail or `sub`, so an API that answers
 * any order by its number (Shopify, WooCommerce) shows a visitor only their own. Null: no check,
 * as every action saved before had.
 */
export class ActionVisitorMatch1799000000000 implements MigrationInterface {
  name = 'ActionVisitorMatch1799000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "bot_actions" ADD COLUMN IF NOT EXISTS "visitor_match" jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "bot_actions" DROP COLUMN IF EXISTS "visitor_match"`);
  }
}
