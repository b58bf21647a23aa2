import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { entityManagerOf, type Transaction } from '../../database/transaction.js';

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

/**
 * The billing columns of `users`, read: the only place billing reads them. Billing writes them
 * through UsersService (the users module's repository is the one writer of `users`); those
 * updates are conditional so that concurrent requests and out-of-order provider events cannot
 * undo each other.
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

  async findByCustomerId(customerId: string, tx?: Transaction): Promise<BillingAccount | null> {
    const manager = tx && entityManagerOf(tx);
    const rows: Row[] = await this.db(manager).query(
      `SELECT ${COLUMNS} FROM users WHERE stripe_customer_id = $1 ORDER BY id LIMIT 1`,
      [customerId],
    );
    return rows[0] ? toAccount(rows[0]) : null;
  }

  /** Accounts deleted with a subscription still running: ended by the monthly job once billed. */
  async deletedWithSubscription(tx: Transaction): Promise<Array<{ id: number; subscriptionId: string }>> {
    const manager = entityManagerOf(tx);
    const rows: Array<{ id: number; stripe_subscription_id: string }> = await manager.query(
      `SELECT id, stripe_subscription_id FROM users
        WHERE deleted_at IS NOT NULL AND stripe_subscription_id IS NOT NULL ORDER BY id`,
    );
    return rows.map((r) => ({ id: Number(r.id), subscriptionId: r.stripe_subscription_id }));
  }
}
