import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Website sources: each passage remembers the page it comes from (address and title), so an
 * answer cites the page rather than the site; a website source remembers how many pages to read.
 */
export class KnowledgeWebsitePages1796700000001 implements MigrationInterface {
  name = 'KnowledgeWebsitePages1796700000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE "document_chunks" ADD COLUMN "page_url" varchar(2048), ADD COLUMN "page_title" varchar(300)`,
    );
    await q.query(`ALTER TABLE "bot_sources" ADD COLUMN "max_pages" integer`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "bot_sources" DROP COLUMN "max_pages"`);
    await q.query(`ALTER TABLE "document_chunks" DROP COLUMN "page_url", DROP COLUMN "page_title"`);
  }
}
