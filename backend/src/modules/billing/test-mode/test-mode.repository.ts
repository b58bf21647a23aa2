import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { returnedRows } from '../../../database/query-results.js';
import { entityManagerOf, type Transaction } from '../../../database/transaction.js';
import type { BillingEvent } from '../payments.port.js';

/** The caller's transaction, or null for a statement of its own. */
type Tx = Transaction | null;

export function testId(prefix: string, bytes = 12): string {
  return `${prefix}_test_${randomBytes(bytes).toString('base64url')}`;
}

export interface TestCustomer {
  id: string;
  email: string;
  ownerId: number;
  defaultPaymentMethod: string | null;
}

export interface TestCheckoutSession {
  id: string;
  customerId: string;
  email: string;
  successUrl: string;
  cancelUrl: string;
  status: 'open' | 'complete' | 'expired';
  expiresAt: Date;
}

export interface TestSubscription {
  id: string;
  itemId: string;
  customerId: string;
  status: 'active' | 'past_due' | 'canceled';
  createdAt: Date;
  canceledAt: Date | null;
}

export interface TestInvoice {
  id: string;
  customerId: string;
  subscriptionId: string;
  amountCents: number;
  status: 'open' | 'paid';
}

export interface TestPaymentMethod {
  id: string;
  chargesSucceed: boolean;
}

/**
 * The embedded test-mode provider's storage (tables `test_payment_*`). Plain SQL on purpose: these
 * tables are the fake provider's own data, not our domain model. Every method takes the database
 * handle to use: the caller's transaction manager, or the data source.
 */
@Injectable()
export class TestModeRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private db(tx: Tx): DataSource | EntityManager {
    return tx ? entityManagerOf(tx) : this.dataSource;
  }

  async insertCustomer(tx: Tx, c: { email: string; ownerId: number; idempotencyKey: string }): Promise<string> {
    await this.db(tx).query(
      `INSERT INTO test_payment_customers (id, email, owner_id, idempotency_key) VALUES ($1, $2, $3, $4)
       ON CONFLICT (idempotency_key) DO NOTHING`,
      [testId('cus'), c.email, c.ownerId, c.idempotencyKey],
    );
    const rows = returnedRows<{ id: string }>(
      await this.db(tx).query(`SELECT id FROM test_payment_customers WHERE idempotency_key = $1`, [c.idempotencyKey]),
    );
    return rows[0].id;
  }

  async findCustomer(tx: Tx, id: string, lock = false): Promise<TestCustomer | null> {
    const rows = returnedRows<{ id: string; email: string; owner_id: number; default_payment_method: string | null }>(
      await this.db(tx).query(
        `SELECT id, email, owner_id, default_payment_method FROM test_payment_customers WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
        [id],
      ),
    );
    const r = rows[0];
    return r ? { id: r.id, email: r.email, ownerId: r.owner_id, defaultPaymentMethod: r.default_payment_method } : null;
  }

  async setDefaultPaymentMethod(tx: Tx, customerId: string, paymentMethodId: string): Promise<void> {
    await this.db(tx).query(`UPDATE test_payment_customers SET default_payment_method = $2 WHERE id = $1`, [
      customerId,
      paymentMethodId,
    ]);
  }

  async insertCheckoutSession(
    tx: Tx,
    s: { customerId: string; successUrl: string; cancelUrl: string; expiresAt: Date },
  ): Promise<string> {
    const id = testId('cs', 24);
    await this.db(tx).query(
      `INSERT INTO test_payment_checkout_sessions (id, customer_id, success_url, cancel_url, expires_at)
       VALUES ($1, $2, $3, $4, $5)`,
      [id, s.customerId, s.successUrl, s.cancelUrl, s.expiresAt],
    );
    return id;
  }

  async findCheckoutSession(tx: Tx, id: string, lock = false): Promise<TestCheckoutSession | null> {
    const rows = returnedRows<{
      id: string;
      customer_id: string;
      email: string;
      success_url: string;
      cancel_url: string;
      status: TestCheckoutSession['status'];
      expires_at: Date;
    }>(
      await this.db(tx).query(
        `SELECT s.id, s.customer_id, c.email, s.success_url, s.cancel_url, s.status, s.expires_at
           FROM test_payment_checkout_sessions s JOIN test_payment_customers c ON c.id = s.customer_id
          WHERE s.id = $1${lock ? ' FOR UPDATE OF s' : ''}`,
        [id],
      ),
    );
    const r = rows[0];
    if (!r) return null;
    return {
      id: r.id,
      customerId: r.customer_id,
      email: r.email,
      successUrl: r.success_url,
      cancelUrl: r.cancel_url,
      status: r.status,
      expiresAt: new Date(r.expires_at),
    };
  }

  async completeCheckoutSession(tx: Tx, id: string, paymentMethodId: string): Promise<void> {
    await this.db(tx).query(
      `UPDATE test_payment_checkout_sessions SET status = 'complete', payment_method_id = $2, completed_at = now()
        WHERE id = $1`,
      [id, paymentMethodId],
    );
  }

  async sessionPaymentMethod(tx: Tx, sessionId: string): Promise<string | null> {
    const rows = returnedRows<{ payment_method_id: string | null }>(
      await this.db(tx).query(`SELECT payment_method_id FROM test_payment_checkout_sessions WHERE id = $1`, [
        sessionId,
      ]),
    );
    return rows[0]?.payment_method_id ?? null;
  }

  async insertPaymentMethod(
    tx: Tx,
    pm: {
      customerId: string;
      brand: string;
      last4: string;
      expMonth: number;
      expYear: number;
      chargesSucceed: boolean;
    },
  ): Promise<string> {
    const id = testId('pm');
    await this.db(tx).query(
      `INSERT INTO test_payment_methods (id, customer_id, brand, last4, exp_month, exp_year, charges_succeed)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [id, pm.customerId, pm.brand, pm.last4, pm.expMonth, pm.expYear, pm.chargesSucceed],
    );
    return id;
  }

  async countPaymentMethods(tx: Tx, customerId: string): Promise<number> {
    const rows = returnedRows<{ n: string }>(
      await this.db(tx).query(`SELECT count(*) AS n FROM test_payment_methods WHERE customer_id = $1`, [customerId]),
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** The customer's default card, else the newest one. */
  async paymentMethodChargesSucceed(tx: Tx, paymentMethodId: string): Promise<boolean> {
    const rows = returnedRows<{ charges_succeed: boolean }>(
      await this.db(tx).query(`SELECT charges_succeed FROM test_payment_methods WHERE id = $1`, [paymentMethodId]),
    );
    return rows[0]?.charges_succeed === true;
  }

  async chargeablePaymentMethod(tx: Tx, customerId: string): Promise<TestPaymentMethod | null> {
    const rows = returnedRows<{ id: string; charges_succeed: boolean }>(
      await this.db(tx).query(
        `SELECT pm.id, pm.charges_succeed
           FROM test_payment_methods pm JOIN test_payment_customers c ON c.id = pm.customer_id
          WHERE pm.customer_id = $1
          ORDER BY (pm.id = c.default_payment_method) DESC, pm.created_at DESC
          LIMIT 1`,
        [customerId],
      ),
    );
    const r = rows[0];
    return r ? { id: r.id, chargesSucceed: r.charges_succeed } : null;
  }

  async insertSubscription(
    tx: Tx,
    s: { customerId: string; billingCycleDay: number; idempotencyKey: string },
  ): Promise<TestSubscription> {
    await this.db(tx).query(
      `INSERT INTO test_payment_subscriptions (id, item_id, customer_id, status, billing_cycle_day, idempotency_key)
       VALUES ($1, $2, $3, 'active', $4, $5) ON CONFLICT (idempotency_key) DO NOTHING`,
      [testId('sub'), testId('si'), s.customerId, s.billingCycleDay, s.idempotencyKey],
    );
    const rows = returnedRows<{ id: string }>(
      await this.db(tx).query(`SELECT id FROM test_payment_subscriptions WHERE idempotency_key = $1`, [
        s.idempotencyKey,
      ]),
    );
    return (await this.findSubscription(tx, rows[0].id))!;
  }

  async findSubscription(tx: Tx, id: string): Promise<TestSubscription | null> {
    const rows = returnedRows<SubscriptionRow>(
      await this.db(tx).query(
        `SELECT id, item_id, customer_id, status, created_at, canceled_at FROM test_payment_subscriptions WHERE id = $1`,
        [id],
      ),
    );
    return rows[0] ? toSubscription(rows[0]) : null;
  }

  async billableSubscriptions(tx: Tx): Promise<TestSubscription[]> {
    const rows = returnedRows<SubscriptionRow>(
      await this.db(tx).query(
        `SELECT id, item_id, customer_id, status, created_at, canceled_at FROM test_payment_subscriptions
          WHERE status <> 'canceled' ORDER BY created_at, id`,
      ),
    );
    return rows.map(toSubscription);
  }

  async subscriptionsOf(tx: Tx, customerId: string): Promise<TestSubscription[]> {
    const rows = returnedRows<SubscriptionRow>(
      await this.db(tx).query(
        `SELECT id, item_id, customer_id, status, created_at, canceled_at FROM test_payment_subscriptions
          WHERE customer_id = $1 AND status <> 'canceled'`,
        [customerId],
      ),
    );
    return rows.map(toSubscription);
  }

  async setSubscriptionStatus(tx: Tx, id: string, status: TestSubscription['status']): Promise<void> {
    await this.db(tx).query(
      `UPDATE test_payment_subscriptions
          SET status = $2::varchar, canceled_at = CASE WHEN $2::varchar = 'canceled' THEN now() ELSE canceled_at END
        WHERE id = $1 AND status <> 'canceled'`,
      [id, status],
    );
  }

  /** Stores a meter event unless one with the same identifier exists (Stripe's de-duplication). */
  async insertMeterEvent(
    tx: Tx,
    e: { identifier: string; eventName: string; customerId: string; value: number; timestamp: Date },
  ): Promise<boolean> {
    const rows = returnedRows<{ identifier: string }>(
      await this.db(tx).query(
        `INSERT INTO test_payment_meter_events (identifier, event_name, customer_id, value, "timestamp")
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (identifier) DO NOTHING RETURNING identifier`,
        [e.identifier, e.eventName, e.customerId, e.value, e.timestamp],
      ),
    );
    return rows.length === 1;
  }

  /**
   * Creates the invoice of one subscription for one period (at most once: unique per period) with
   * every meter event of its customer not yet invoiced and dated before `usageBefore`.
   * Returns null when that period was already invoiced.
   */
  async createInvoice(
    tx: Tx,
    i: { subscription: TestSubscription; periodStart: string; periodEnd: string; usageBefore: Date },
  ): Promise<TestInvoice | null> {
    const id = testId('in');
    const inserted = returnedRows<{ id: string }>(
      await this.db(tx).query(
        `INSERT INTO test_payment_invoices (id, customer_id, subscription_id, period_start, period_end, amount_cents, status)
         VALUES ($1, $2, $3, $4, $5, 0, 'open')
         ON CONFLICT ON CONSTRAINT test_payment_invoices_period_key DO NOTHING RETURNING id`,
        [id, i.subscription.customerId, i.subscription.id, i.periodStart, i.periodEnd],
      ),
    );
    if (inserted.length === 0) return null;
    const [claimed] = returnedRows<{ total: string | null }>(
      await this.db(tx).query(
        `WITH claimed AS (
           UPDATE test_payment_meter_events SET invoice_id = $1
            WHERE customer_id = $2 AND invoice_id IS NULL AND "timestamp" < $3
           RETURNING value)
         SELECT sum(value) AS total FROM claimed`,
        [id, i.subscription.customerId, i.usageBefore],
      ),
    );
    const amount = Number(claimed?.total ?? 0);
    await this.db(tx).query(`UPDATE test_payment_invoices SET amount_cents = $2 WHERE id = $1`, [id, amount]);
    return {
      id,
      customerId: i.subscription.customerId,
      subscriptionId: i.subscription.id,
      amountCents: amount,
      status: 'open',
    };
  }

  async openInvoices(tx: Tx, customerId: string): Promise<TestInvoice[]> {
    const rows = returnedRows<InvoiceRow>(
      await this.db(tx).query(
        `SELECT id, customer_id, subscription_id, amount_cents, status FROM test_payment_invoices
          WHERE customer_id = $1 AND status = 'open' ORDER BY created_at FOR UPDATE`,
        [customerId],
      ),
    );
    return rows.map(toInvoice);
  }

  async hasOverdueInvoices(tx: Tx, customerId: string): Promise<boolean> {
    const rows = returnedRows<unknown>(
      await this.db(tx).query(
        `SELECT 1 FROM test_payment_invoices WHERE customer_id = $1 AND status = 'open' AND attempt_count > 0 LIMIT 1`,
        [customerId],
      ),
    );
    return rows.length > 0;
  }

  async recordCharge(
    tx: Tx,
    c: { invoiceId: string; paymentMethodId: string | null; amountCents: number; succeeded: boolean; failure?: string },
  ): Promise<void> {
    await this.db(tx).query(
      `INSERT INTO test_payment_charges (id, invoice_id, payment_method_id, amount_cents, status, failure_message)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        testId('ch'),
        c.invoiceId,
        c.paymentMethodId,
        c.amountCents,
        c.succeeded ? 'succeeded' : 'failed',
        c.failure ?? null,
      ],
    );
    if (c.succeeded) {
      await this.db(tx).query(
        `UPDATE test_payment_invoices SET status = 'paid', paid_at = now(), attempt_count = attempt_count + 1 WHERE id = $1`,
        [c.invoiceId],
      );
    } else {
      await this.db(tx).query(`UPDATE test_payment_invoices SET attempt_count = attempt_count + 1 WHERE id = $1`, [
        c.invoiceId,
      ]);
    }
  }

  async markInvoicePaid(tx: Tx, invoiceId: string): Promise<void> {
    await this.db(tx).query(`UPDATE test_payment_invoices SET status = 'paid', paid_at = now() WHERE id = $1`, [
      invoiceId,
    ]);
  }

  async insertEvent(tx: Tx, event: BillingEvent): Promise<void> {
    await this.db(tx).query(`INSERT INTO test_payment_events (id, type, payload, created_at) VALUES ($1, $2, $3, $4)`, [
      event.id,
      event.type,
      JSON.stringify(event),
      event.created,
    ]);
  }

  async pendingEvents(tx: Tx, limit: number): Promise<BillingEvent[]> {
    const rows = returnedRows<{ payload: BillingEvent & { created: string } }>(
      await this.db(tx).query(
        `SELECT payload FROM test_payment_events WHERE delivered_at IS NULL ORDER BY created_at, id LIMIT $1`,
        [limit],
      ),
    );
    return rows.map((r) => ({ ...r.payload, created: new Date(r.payload.created) }));
  }

  /** The card charges go to: the default one, else the newest. */
  async cardOnFile(
    tx: Tx,
    customerId: string,
  ): Promise<{ brand: string; last4: string; expMonth: number; expYear: number } | null> {
    const rows = returnedRows<{ brand: string; last4: string; exp_month: number; exp_year: number }>(
      await this.db(tx).query(
        `SELECT pm.brand, pm.last4, pm.exp_month, pm.exp_year
           FROM test_payment_methods pm JOIN test_payment_customers c ON c.id = pm.customer_id
          WHERE pm.customer_id = $1
          ORDER BY (pm.id = c.default_payment_method) DESC, pm.created_at DESC
          LIMIT 1`,
        [customerId],
      ),
    );
    const r = rows[0];
    return r ? { brand: r.brand, last4: r.last4, expMonth: Number(r.exp_month), expYear: Number(r.exp_year) } : null;
  }

  /** The customer's latest invoices, newest first. */
  async latestInvoices(
    tx: Tx,
    customerId: string,
    limit: number,
  ): Promise<Array<{ id: string; created: Date; amountCents: number; status: string }>> {
    const rows = returnedRows<{ id: string; created_at: Date; amount_cents: number; status: string }>(
      await this.db(tx).query(
        `SELECT id, created_at, amount_cents, status FROM test_payment_invoices
          WHERE customer_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
        [customerId, limit],
      ),
    );
    return rows.map((r) => ({
      id: r.id,
      created: new Date(r.created_at),
      amountCents: Number(r.amount_cents),
      status: r.status,
    }));
  }

  async markEventDelivered(tx: Tx, id: string): Promise<void> {
    await this.db(tx).query(`UPDATE test_payment_events SET delivered_at = now() WHERE id = $1`, [id]);
  }
}

interface SubscriptionRow {
  id: string;
  item_id: string;
  customer_id: string;
  status: TestSubscription['status'];
  created_at: Date;
  canceled_at: Date | null;
}

function toSubscription(r: SubscriptionRow): TestSubscription {
  return {
    id: r.id,
    itemId: r.item_id,
    customerId: r.customer_id,
    status: r.status,
    createdAt: new Date(r.created_at),
    canceledAt: r.canceled_at ? new Date(r.canceled_at) : null,
  };
}

interface InvoiceRow {
  id: string;
  customer_id: string;
  subscription_id: string;
  amount_cents: number;
  status: TestInvoice['status'];
}

function toInvoice(r: InvoiceRow): TestInvoice {
  return {
    id: r.id,
    customerId: r.customer_id,
    subscriptionId: r.subscription_id,
    amountCents: Number(r.amount_cents),
    status: r.status,
  };
}
