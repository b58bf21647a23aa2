import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The usage read side (docs/product.md#usage-figures) sums `price_cents` and `total_tokens` over a (owner or bot,
 * created_at) window. The two ledger indexes keep their names and keys and gain
 * INCLUDE (price_cents, total_tokens), so those sums are index-only scans instead of one heap
 * page per ledger row (bench/usage.mjs: the plans and timings on a million-row ledger).
 *
 * Plain CREATE INDEX (migrations run in a transaction): it blocks ledger writes while it builds,
 * which is instant on today's tables; on a large live ledger build it CONCURRENTLY by hand first.
 */
export class UsageReadIndexes1795306042000 implements MigrationInterface {
  name = 'UsageReadIndexes1795306042000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS "usage_events_owner_time_idx"`);
    await q.query(
      `CREATE INDEX "usage_events_owner_time_idx" ON "usage_events" ("owner_id", "created_at") INCLUDE ("price_cents", "total_tokens")`,
    );
    await q.query(`DROP INDEX IF EXISTS "usage_events_bot_time_idx"`);
    await q.query(
      `CREATE INDEX "usage_events_bot_time_idx" ON "usage_events" ("bot_id", "created_at") INCLUDE ("price_cents", "total_tokens")`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS "usage_events_owner_time_idx"`);
    await q.query(`CREATE INDEX "usage_events_owner_time_idx" ON "usage_events" ("owner_id", "created_at")`);
    await q.query(`DROP INDEX IF EXISTS "usage_events_bot_time_idx"`);
    await q.query(`CREATE INDEX "usage_events_bot_time_idx" ON "usage_events" ("bot_id", "created_at")`);
  }
}
