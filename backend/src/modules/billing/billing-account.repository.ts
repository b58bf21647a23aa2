import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';

/** An owner's billing columns (`users`), deleted accounts included. */
export interface BillingAccount {
  id: number;
  email: string;
  stripeCustomerId: string | null;
  stripeSubscriptionId: string | null;
  subscriptionItemId: string | null;
  hasPaid: boolean | null;
  creditsCents: number;
  isSystem: boolean;
  deleted: boolean;
}

interface Row {
  id: number;
  email: string;
  stripe_customer_id: string | null;
  stripe_subscription_id: string | null;
  subscription_item_id: string | null;
  has_paid: boolean | null;
  credits_cents: number;
  is_system: boolean;
  deleted_at: Date | null;
}

const COLUMNS = `id, email, stripe_customer_id, stripe_subscription_id, subscription_item_id, has_paid, credits_cents,
  is_system, deleted_at`;

function toAccount(r: Row): BillingAccount {
  return {
    id: Number(r.id),
    email: r.email,
    stripeCustomerId: r.stripe_customer_id,
    stripeSubscriptionId: r.stripe_subscription_id,
    subscriptionItemId: r.subscription_item_id,
    hasPaid: r.has_paid,
    creditsCents: Number(r.credits_cents),
    isSystem: r.is_system,
    deleted: r.deleted_at !== null,
  };
}

/** TypeORM answers UPDATE with [rows, count]. */
function affected(result: unknown): number {
  return Array.isArray(result) && typeof result[1] === 'number' ? result[1] : 0;
}

/**
 * The billing columns of `users`: the only place billing reads or writes them. Updates are
 * conditional so that concurrent requests and out-of-order provider events cannot undo each other.
 */
@Injectable()
export class BillingAccountRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private db(manager?: EntityManager): DataSource | EntityManager {
    return manager ?? this.dataSource;
  }

  async findActive(ownerId: number): Promise<BillingAccount | null> {
    const rows: Row[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM users WHERE id = $1 AND deleted_at IS NULL`,
      [ownerId],
    );
    return rows[0] ? toAccount(rows[0]) : null;
  }

  async findByCustomerId(customerId: string, manager?: EntityManager): Promise<BillingAccount | null> {
    const rows: Row[] = await this.db(manager).query(
      `SELECT ${COLUMNS} FROM users WHERE stripe_customer_id = $1 ORDER BY id LIMIT 1`,
      [customerId],
    );
    return rows[0] ? toAccount(rows[0]) : null;
  }

  /** Stores the customer unless one is already there; returns the one that is stored. */
  async setCustomerIfMissing(ownerId: number, customerId: string): Promise<string | null> {
    await this.dataSource.query(
      `UPDATE users SET stripe_customer_id = $2 WHERE id = $1 AND stripe_customer_id IS NULL`,
      [ownerId, customerId],
    );
    const rows: Array<{ stripe_customer_id: string | null }> = await this.dataSource.query(
      `SELECT stripe_customer_id FROM users WHERE id = $1`,
      [ownerId],
    );
    return rows[0]?.stripe_customer_id ?? null;
  }

  /**
   * Stores the subscription unless one is already there. The first subscription sets hasPaid
   * (null until then) to true; a recorded payment failure (false) stays until an invoice is paid.
   */
  async setSubscriptionIfMissing(ownerId: number, subscriptionId: string, itemId: string): Promise<string | null> {
    await this.dataSource.query(
      `UPDATE users SET stripe_subscription_id = $2, subscription_item_id = $3, has_paid = COALESCE(has_paid, true)
        WHERE id = $1 AND subscription_item_id IS NULL`,
      [ownerId, subscriptionId, itemId],
    );
    const rows: Array<{ subscription_item_id: string | null }> = await this.dataSource.query(
      `SELECT subscription_item_id FROM users WHERE id = $1`,
      [ownerId],
    );
    return rows[0]?.subscription_item_id ?? null;
  }

  /**
   * Records a payment outcome from a provider event created at `at`, unless a newer event already
   * decided it (providers do not deliver events in order). Returns whether a row changed.
   */
  async setPaymentStatus(customerId: string, hasPaid: boolean, at: Date, manager?: EntityManager): Promise<boolean> {
    const result: unknown = await this.db(manager).query(
      `UPDATE users SET has_paid = $2, payment_status_at = $3
        WHERE stripe_customer_id = $1 AND (payment_status_at IS NULL OR payment_status_at <= $3)`,
      [customerId, hasPaid, at],
    );
    return affected(result) > 0;
  }

  /** The provider ended the subscription: the owner sets a new one up (SUBSCRIPTION_PENDING). */
  async clearSubscription(customerId: string, subscriptionId: string, manager?: EntityManager): Promise<void> {
    await this.db(manager).query(
      `UPDATE users SET stripe_subscription_id = NULL, subscription_item_id = NULL
        WHERE stripe_customer_id = $1 AND stripe_subscription_id = $2`,
      [customerId, subscriptionId],
    );
  }

  /** Accounts deleted with a subscription still running: ended by the monthly job once billed. */
  async deletedWithSubscription(manager: EntityManager): Promise<Array<{ id: number; subscriptionId: string }>> {
    const rows: Array<{ id: number; stripe_subscription_id: string }> = await manager.query(
      `SELECT id, stripe_subscription_id FROM users
        WHERE deleted_at IS NOT NULL AND stripe_subscription_id IS NOT NULL ORDER BY id`,
    );
    return rows.map((r) => ({ id: Number(r.id), subscriptionId: r.stripe_subscription_id }));
  }

  async forgetSubscription(ownerId: number, manager: EntityManager): Promise<void> {
    await manager.query(`UPDATE users SET stripe_subscription_id = NULL, subscription_item_id = NULL WHERE id = $1`, [
      ownerId,
    ]);
  }
}
