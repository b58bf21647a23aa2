import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Fair webhook deliveries (docs/product.md#webhooks). Each endpoint carries its own claim:
 * `busy_until` is the lease of the one delivery in flight to it (a worker takes an endpoint only
 * when it is free, so no endpoint ever has two requests open, whichever instance sends), and
 * `last_claimed_at` says when it was last served, which orders owners round-robin. The failure
 * streak: `failing_since` is the first failed attempt with no success since; three days of it
 * sets `disabled_at` (nothing more is sent, pending deliveries wait). `reenabled_at`: when the
 * owner enabled it again, the start of a new 24-hour window for the deliveries that waited.
 */
export class WebhookFairness1798620000000 implements MigrationInterface {
  name = 'WebhookFairness1798620000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE "webhook_endpoints"
        ADD COLUMN "busy_until" timestamptz,
        ADD COLUMN "last_claimed_at" timestamptz,
        ADD COLUMN "failing_since" timestamptz,
        ADD COLUMN "disabled_at" timestamptz,
        ADD COLUMN "reenabled_at" timestamptz`);
    await q.query(
      `CREATE INDEX "webhook_deliveries_endpoint_due_idx" ON "webhook_deliveries" ("endpoint_id", "next_attempt_at", "id")
        WHERE "status" = 'pending'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS "webhook_deliveries_endpoint_due_idx"`);
    await q.query(`
      ALTER TABLE "webhook_endpoints"
        DROP COLUMN "busy_until", DROP COLUMN "last_claimed_at", DROP COLUMN "failing_since",
        DROP COLUMN "disabled_at", DROP COLUMN "reenabled_at"`);
  }
}
