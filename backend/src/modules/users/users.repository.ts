import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, type Repository } from 'typeorm';
import { affectedCount } from '../../database/query-results.js';
import { sqlValue, type SqlValue, type StatementParts } from '../../database/statement.js';
import { entityManagerOf, type Transaction } from '../../database/transaction.js';
import { UserEntity } from './user.entity.js';

/** The credits an answer takes, as values for the statement's other parts (UsersRepository.addCreditSpend). */
export interface CreditSpend {
  /** True once the owner's row is locked and charged; false when there is no such owner. */
  done: SqlValue;
  /** Taken from the free credits (0 for the system account). */
  takenCents: SqlValue;
  isSystem: SqlValue;
}

/**
 * The only place that writes `users` (billing and usage read some of its columns in their own
 * queries, and write through UsersService). Deleted accounts are invisible to the finders here.
 */
@Injectable()
export class UsersRepository {
  constructor(@InjectRepository(UserEntity) private readonly users: Repository<UserEntity>) {}

  findActiveById(id: number): Promise<UserEntity | null> {
    return this.users.findOneBy({ id, deletedAt: IsNull() });
  }

  findActiveByEmail(email: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ email: email.toLowerCase(), deletedAt: IsNull() });
  }

  create(fields: Pick<UserEntity, 'email' | 'passwordHash'> & Partial<UserEntity>, tx?: Transaction) {
    const manager = tx && entityManagerOf(tx);
    const repo = manager ? manager.getRepository(UserEntity) : this.users;
    return repo.save(repo.create({ ...fields, email: fields.email.toLowerCase() }));
  }

  async update(id: number, fields: Partial<UserEntity>, tx?: Transaction): Promise<void> {
    const manager = tx && entityManagerOf(tx);
    const repo = manager ? manager.getRepository(UserEntity) : this.users;
    await repo.update({ id }, fields);
  }

  /** Updates an account that is not deleted; false when there is none. */
  async updateActive(id: number, fields: Partial<UserEntity>): Promise<boolean> {
    const result = await this.users.update({ id, deletedAt: IsNull() }, fields);
    return (result.affected ?? 0) > 0;
  }

  /** Throws PostgreSQL's 22023 when the database does not know the time zone `name`. */
  async checkTimeZone(name: string): Promise<void> {
    await this.users.query(`SELECT now() AT TIME ZONE $1`, [name]);
  }

  /** Sets email_verified_at once; a later verification keeps the first date. */
  async markVerified(id: number, tx?: Transaction): Promise<void> {
    const manager = tx && entityManagerOf(tx);
    const repo = manager ? manager.getRepository(UserEntity) : this.users;
    await repo.update({ id, emailVerifiedAt: IsNull() }, { emailVerifiedAt: new Date() });
  }

  /**
   * Verifies a still-unverified, active account and gives it `passwordHash`, in one statement.
   * False when the account was verified (or deleted) meanwhile: nothing changes then.
   */
  async verifyWithPassword(id: number, passwordHash: string, tx: Transaction): Promise<boolean> {
    const manager = entityManagerOf(tx);
    const result = await manager
      .getRepository(UserEntity)
      .update({ id, deletedAt: IsNull(), emailVerifiedAt: IsNull() }, { passwordHash, emailVerifiedAt: new Date() });
    return (result.affected ?? 0) === 1;
  }

  /**
   * Soft delete: the row stays (the final period's usage is still billed to its customer), the
   * e-mail becomes free (the unique index only covers rows with deleted_at IS NULL) and the
   * password hash is wiped so the row can never sign in again.
   */
  async markDeleted(id: number, tx: Transaction): Promise<void> {
    const manager = entityManagerOf(tx);
    await manager
      .getRepository(UserEntity)
      .update({ id, deletedAt: IsNull() }, { deletedAt: new Date(), passwordHash: '' });
  }

  private query(sql: string, params: unknown[], tx?: Transaction): Promise<unknown> {
    return tx ? entityManagerOf(tx).query(sql, params) : this.users.query(sql, params);
  }

  /**
   * Adds to a statement the credits an answered message takes from its owner: the owner's row is
   * locked (FOR UPDATE) and the price taken from the free credits, never below zero, atomically
   * (concurrent charges never overdraw). The system account's balance is left alone. A price of 0
   * takes the lock alone. The lock comes before the statement's inserts that share-lock the owner
   * row through their foreign keys, provided their parts wait for `done`
   * (docs/decisions/0016-chat-path-cost.md); it is held until the statement's transaction ends.
   */
  addCreditSpend(parts: StatementParts, ownerId: number, priceCents: number): CreditSpend {
    parts.with(
      'owner_credit_spend',
      `UPDATE users AS u
          SET credits_cents = CASE WHEN u.is_system THEN u.credits_cents
                                   ELSE u.credits_cents - LEAST(u.credits_cents, ${parts.param(priceCents, 'integer')}) END
         FROM (SELECT id, credits_cents FROM users WHERE id = ${parts.param(ownerId, 'integer')} FOR UPDATE) AS before
        WHERE u.id = before.id
       RETURNING before.credits_cents - u.credits_cents AS taken_cents, u.is_system`,
    );
    return {
      done: sqlValue('EXISTS (SELECT 1 FROM owner_credit_spend)'),
      takenCents: sqlValue('(SELECT taken_cents FROM owner_credit_spend)'),
      isSystem: sqlValue('(SELECT is_system FROM owner_credit_spend)'),
    };
  }

  /** Stores the payment-provider customer unless one is already there; returns the one that is stored. */
  async setCustomerIfMissing(ownerId: number, customerId: string): Promise<string | null> {
    await this.query(`UPDATE users SET stripe_customer_id = $2 WHERE id = $1 AND stripe_customer_id IS NULL`, [
      ownerId,
      customerId,
    ]);
    const rows = (await this.query(`SELECT stripe_customer_id FROM users WHERE id = $1`, [ownerId])) as Array<{
      stripe_customer_id: string | null;
    }>;
    return rows[0]?.stripe_customer_id ?? null;
  }

  /**
   * Stores the subscription unless one is already there. The first subscription sets hasPaid
   * (null until then) to true; a recorded payment failure (false) stays until an invoice is paid.
   */
  async setSubscriptionIfMissing(ownerId: number, subscriptionId: string, itemId: string): Promise<string | null> {
    await this.query(
      `UPDATE users SET stripe_subscription_id = $2, subscription_item_id = $3, has_paid = COALESCE(has_paid, true)
        WHERE id = $1 AND subscription_item_id IS NULL`,
      [ownerId, subscriptionId, itemId],
    );
    const rows = (await this.query(`SELECT subscription_item_id FROM users WHERE id = $1`, [ownerId])) as Array<{
      subscription_item_id: string | null;
    }>;
    return rows[0]?.subscription_item_id ?? null;
  }

  /**
   * Records a payment outcome from a provider event created at `at`, unless a newer event already
   * decided it (providers do not deliver events in order). Returns whether a row changed.
   */
  async setPaymentStatus(customerId: string, hasPaid: boolean, at: Date, tx?: Transaction): Promise<boolean> {
    const result = await this.query(
      `UPDATE users SET has_paid = $2, payment_status_at = $3
        WHERE stripe_customer_id = $1 AND (payment_status_at IS NULL OR payment_status_at <= $3)`,
      [customerId, hasPaid, at],
      tx,
    );
    return affectedCount(result) > 0;
  }

  /** The provider ended the subscription: the owner sets a new one up (SUBSCRIPTION_PENDING). */
  async clearSubscription(customerId: string, subscriptionId: string, tx?: Transaction): Promise<void> {
    await this.query(
      `UPDATE users SET stripe_subscription_id = NULL, subscription_item_id = NULL
        WHERE stripe_customer_id = $1 AND stripe_subscription_id = $2`,
      [customerId, subscriptionId],
      tx,
    );
  }

  /** A deleted account's subscription was ended by the monthly job. */
  async forgetSubscription(ownerId: number, tx: Transaction): Promise<void> {
    await this.query(
      `UPDATE users SET stripe_subscription_id = NULL, subscription_item_id = NULL WHERE id = $1`,
      [ownerId],
      tx,
    );
  }
}
