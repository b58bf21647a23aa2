import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhooks (docs/product.md#webhooks). `webhook_endpoints`: an owner's HTTPS endpoints, the events
 * each wants and the secret that signs its deliveries (kept to sign; the API shows it once).
 * `webhook_deliveries` is the queue and the log at once: one row per event and endpoint (the
 * unique key is what delivers an event once per endpoint), the body as first built (every retry
 * sends the same bytes), and the latest attempt. A pending row is due at `next_attempt_at`; a
 * worker claims due rows with FOR UPDATE SKIP LOCKED and pushes `next_attempt_at` past a lease,
 * so two instances never send one row at once, and a row of an instance that died is retried.
 */
export class Webhooks1798200000000 implements MigrationInterface {
  name = 'Webhooks1798200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "webhook_endpoints" (
        "id" SERIAL PRIMARY KEY,
        "owner_id" integer NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE,
        "url" text NOT NULL,
        "events" text[] NOT NULL,
        "secret" text NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX "webhook_endpoints_owner_idx" ON "webhook_endpoints" ("owner_id")`);
    await q.query(`
      CREATE TABLE "webhook_deliveries" (
        "id" BIGSERIAL PRIMARY KEY,
        "endpoint_id" integer NOT NULL REFERENCES "webhook_endpoints" ("id") ON DELETE CASCADE,
        "event_id" text NOT NULL,
        "type" text NOT NULL,
        "payload" text NOT NULL,
        "event_created_at" timestamptz NOT NULL,
        "status" text NOT NULL DEFAULT 'pending' CHECK ("status" IN ('pending', 'delivered', 'failed')),
        "attempts" integer NOT NULL DEFAULT 0,
        "next_attempt_at" timestamptz,
        "last_attempt_at" timestamptz,
        "status_code" integer,
        "last_error" text,
        "delivered_at" timestamptz,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "webhook_deliveries_once_key" UNIQUE ("endpoint_id", "event_id")
      )`);
    await q.query(
      `CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" ("next_attempt_at") WHERE "status" = 'pending'`,
    );
    await q.query(`CREATE INDEX "webhook_deliveries_log_idx" ON "webhook_deliveries" ("endpoint_id", "id" DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS "webhook_deliveries"`);
    await q.query(`DROP TABLE IF EXISTS "webhook_endpoints"`);
  }
}
