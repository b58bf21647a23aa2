import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Billing (docs/architecture.md#one-billing-cycle):
 * - `users.payment_status_at`: when the provider event that last set `has_paid` was created, so an
 *   older event delivered late (webhooks have no ordering guarantee) cannot undo a newer one;
 * - `billing_cycle_runs`: one row per closed period (the monthly job on the 3rd);
 * - `test_payment_*`: the embedded test-mode payment provider's own data (used only when no
 *   STRIPE_SECRET_KEY is set). Ids look like Stripe's with a `_test_` infix.
 */
export class Billing1795305972000 implements MigrationInterface {
  name = 'Billing1795305972000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "users" ADD COLUMN "payment_status_at" timestamptz`);
    await q.query(`CREATE INDEX "users_stripe_customer_idx" ON "users" ("stripe_customer_id")`);

    await q.query(`
      CREATE TABLE "billing_cycle_runs" (
        "period_start" date PRIMARY KEY,
        "started_at" timestamptz NOT NULL DEFAULT now(),
        "completed_at" timestamptz,
        "reported_events" integer NOT NULL DEFAULT 0,
        "reported_cents" integer NOT NULL DEFAULT 0,
        "closed_subscriptions" integer NOT NULL DEFAULT 0
      )`);

    await q.query(`
      CREATE TABLE "test_payment_customers" (
        "id" varchar(64) PRIMARY KEY,
        "email" varchar(254) NOT NULL,
        "owner_id" integer NOT NULL,
        "default_payment_method" varchar(64),
        "idempotency_key" varchar(255) NOT NULL UNIQUE,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE "test_payment_methods" (
        "id" varchar(64) PRIMARY KEY,
        "customer_id" varchar(64) NOT NULL REFERENCES "test_payment_customers"("id"),
        "brand" varchar(32) NOT NULL,
        "last4" char(4) NOT NULL,
        "exp_month" smallint NOT NULL,
        "exp_year" smallint NOT NULL,
        "charges_succeed" boolean NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX "test_payment_methods_customer_idx" ON "test_payment_methods" ("customer_id")`);
    await q.query(`
      CREATE TABLE "test_payment_checkout_sessions" (
        "id" varchar(80) PRIMARY KEY,
        "customer_id" varchar(64) NOT NULL REFERENCES "test_payment_customers"("id"),
        "success_url" text NOT NULL,
        "cancel_url" text NOT NULL,
        "status" varchar(16) NOT NULL DEFAULT 'open' CHECK ("status" IN ('open', 'complete', 'expired')),
        "payment_method_id" varchar(64),
        "expires_at" timestamptz NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "completed_at" timestamptz
      )`);
    await q.query(`
      CREATE TABLE "test_payment_subscriptions" (
        "id" varchar(64) PRIMARY KEY,
        "item_id" varchar(64) NOT NULL UNIQUE,
        "customer_id" varchar(64) NOT NULL REFERENCES "test_payment_customers"("id"),
        "status" varchar(16) NOT NULL CHECK ("status" IN ('active', 'past_due', 'canceled')),
        "billing_cycle_day" smallint NOT NULL,
        "idempotency_key" varchar(255) NOT NULL UNIQUE,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "canceled_at" timestamptz
      )`);
    await q.query(`
      CREATE TABLE "test_payment_invoices" (
        "id" varchar(64) PRIMARY KEY,
        "customer_id" varchar(64) NOT NULL REFERENCES "test_payment_customers"("id"),
        "subscription_id" varchar(64) NOT NULL REFERENCES "test_payment_subscriptions"("id"),
        "period_start" date NOT NULL,
        "period_end" date NOT NULL,
        "amount_cents" integer NOT NULL CHECK ("amount_cents" >= 0),
        "status" varchar(16) NOT NULL CHECK ("status" IN ('open', 'paid')),
        "attempt_count" integer NOT NULL DEFAULT 0,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "paid_at" timestamptz,
        CONSTRAINT "test_payment_invoices_period_key" UNIQUE ("subscription_id", "period_start")
      )`);
    // Meter events, de-duplicated by identifier as Stripe does; invoiced once.
    await q.query(`
      CREATE TABLE "test_payment_meter_events" (
        "identifier" varchar(100) PRIMARY KEY,
        "event_name" varchar(100) NOT NULL,
        "customer_id" varchar(64) NOT NULL,
        "value" integer NOT NULL CHECK ("value" >= 0),
        "timestamp" timestamptz NOT NULL,
        "invoice_id" varchar(64) REFERENCES "test_payment_invoices"("id"),
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX "test_payment_meter_events_open_idx" ON "test_payment_meter_events" ("customer_id") WHERE invoice_id IS NULL`,
    );
    await q.query(`
      CREATE TABLE "test_payment_charges" (
        "id" varchar(64) PRIMARY KEY,
        "invoice_id" varchar(64) NOT NULL REFERENCES "test_payment_invoices"("id"),
        "payment_method_id" varchar(64),
        "amount_cents" integer NOT NULL,
        "status" varchar(16) NOT NULL CHECK ("status" IN ('succeeded', 'failed')),
        "failure_message" text,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    // The provider's outgoing events (what Stripe would send as webhooks), delivered in-process.
    await q.query(`
      CREATE TABLE "test_payment_events" (
        "id" varchar(64) PRIMARY KEY,
        "type" varchar(100) NOT NULL,
        "payload" jsonb NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "delivered_at" timestamptz
      )`);
    await q.query(
      `CREATE INDEX "test_payment_events_pending_idx" ON "test_payment_events" ("created_at") WHERE delivered_at IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'test_payment_events',
      'test_payment_charges',
      'test_payment_meter_events',
      'test_payment_invoices',
      'test_payment_subscriptions',
      'test_payment_checkout_sessions',
      'test_payment_methods',
      'test_payment_customers',
      'billing_cycle_runs',
    ]) {
      await q.query(`DROP TABLE IF EXISTS "${table}"`);
    }
    await q.query(`DROP INDEX IF EXISTS "users_stripe_customer_idx"`);
    await q.query(`ALTER TABLE "users" DROP COLUMN IF EXISTS "payment_status_at"`);
  }
}
