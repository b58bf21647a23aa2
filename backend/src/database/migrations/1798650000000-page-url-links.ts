import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The page a conversation was on is stored only as an http(s) URL now (chat/domain-match.ts,
 * storablePageUrl): the inbox shows it as a link. Addresses stored before, unchecked, that are not
 * http(s) (`javascript:`, `data:` ...) are forgotten. Which site they name is not re-checked here:
 * the bot's domain lock may have changed since.
 */
export class PageUrlLinks1798650000000 implements MigrationInterface {
  name = 'PageUrlLinks1798650000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE "conversations" SET "page_url" = NULL WHERE "page_url" !~* '^https?://'`);
  }

  async down(): Promise<void> {
    // The forgotten addresses are not kept anywhere: nothing to restore.
  }
}
