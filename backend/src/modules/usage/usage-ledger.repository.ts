import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';

/** What the owner's row says about whether a message may be answered. */
export interface OwnerBillingRow {
  creditsCents: number;
  hasPaid: boolean | null;
  subscriptionItemId: string | null;
  isSystem: boolean;
  deleted: boolean;
}

/** The `users` columns an `OwnerBillingRow` is read from (select them under these names). */
export interface OwnerBillingColumns {
  credits_cents: number | string;
  has_paid: boolean | null;
  subscription_item_id: string | null;
  is_system: boolean;
  deleted_at: Date | string | null;
}

export function toOwnerBillingRow(row: OwnerBillingColumns): OwnerBillingRow {
  return {
    creditsCents: Number(row.credits_cents),
    hasPaid: row.has_paid,
    subscriptionItemId: row.subscription_item_id,
    isSystem: row.is_system,
    deleted: row.deleted_at !== null,
  };
}

export interface NewUsageEvent {
  ownerId: number;
  botId: number | null;
  messageId: number | null;
  modelTier: string;
  upstreamModel: string;
  priceCents: number;
  promptTokens: number;
  completionTokens: number;
  creditsCents: number;
  billableCents: number;
  periodStart: string;
  reportIdentifier: string;
  createdAt: Date;
}

/** A billable ledger row not yet sent to the payment provider, with the customer it bills. */
export interface UnreportedUsage {
  id: number;
  ownerId: number;
  billableCents: number;
  reportIdentifier: string;
  stripeCustomerId: string;
  createdAt: Date;
}

/**
 * The write side of the usage ledger. Every method that takes a manager runs inside the caller's
 * transaction: with the embedded database's pool of ONE connection, a query issued outside it
 * would wait forever for the connection the transaction holds.
 */
@Injectable()
export class UsageLedgerRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Takes up to `priceCents` from the owner's free credits in one statement. The row is locked
   * (FOR UPDATE re-reads the latest committed balance), so concurrent charges queue on it and the
   * balance never goes below zero. The system account's balance is never touched.
   * Returns null when the owner does not exist.
   */
  async spendCredits(
    manager: EntityManager,
    ownerId: number,
    priceCents: number,
  ): Promise<{ takenCents: number; isSystem: boolean } | null> {
    // TypeORM answers an UPDATE with [rows, rowCount], RETURNING or not.
    const [rows]: [Array<{ before: number; after: number; is_system: boolean }>, number] = await manager.query(
      `UPDATE users AS u
          SET credits_cents = CASE WHEN u.is_system THEN u.credits_cents
                                   ELSE u.credits_cents - LEAST(u.credits_cents, $2) END
         FROM (SELECT id, credits_cents FROM users WHERE id = $1 FOR UPDATE) AS before
        WHERE u.id = before.id
    RETURNING before.credits_cents AS "before", u.credits_cents AS "after", u.is_system`,
      [ownerId, priceCents],
    );
    const row = rows[0];
    if (!row) return null;
    return { takenCents: Number(row.before) - Number(row.after), isSystem: row.is_system };
  }

  async insert(manager: EntityManager, e: NewUsageEvent): Promise<number> {
    const rows: Array<{ id: number }> = await manager.query(
      `INSERT INTO usage_events
         (owner_id, bot_id, message_id, model_tier, upstream_model, price_cents, prompt_tokens,
          completion_tokens, total_tokens, credits_cents, billable_cents, period_start, report_identifier, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       RETURNING id`,
      [
        e.ownerId,
        e.botId,
        e.messageId,
        e.modelTier,
        e.upstreamModel,
        e.priceCents,
        e.promptTokens,
        e.completionTokens,
        e.promptTokens + e.completionTokens,
        e.creditsCents,
        e.billableCents,
        e.periodStart,
        e.reportIdentifier,
        e.createdAt,
      ],
    );
    return Number(rows[0].id);
  }

  async findOwnerBillingRow(ownerId: number, manager?: EntityManager): Promise<OwnerBillingRow | null> {
    const rows: OwnerBillingColumns[] = await (manager ?? this.dataSource).query(
      `SELECT credits_cents, has_paid, subscription_item_id, is_system, deleted_at FROM users WHERE id = $1`,
      [ownerId],
    );
    const row = rows[0];
    return row ? toOwnerBillingRow(row) : null;
  }

  /**
   * Billable rows not yet reported, oldest first, whose owner has a payment-provider customer
   * (deleted accounts included: their last period is still billed).
   */
  async findUnreported(manager: EntityManager | undefined, limit: number): Promise<UnreportedUsage[]> {
    const rows: Array<{
      id: number;
      owner_id: number;
      billable_cents: number;
      report_identifier: string;
      stripe_customer_id: string;
      created_at: Date;
    }> = await (manager ?? this.dataSource).query(
      `SELECT e.id, e.owner_id, e.billable_cents, e.report_identifier, u.stripe_customer_id, e.created_at
         FROM usage_events e JOIN users u ON u.id = e.owner_id
        WHERE e.reported_at IS NULL AND e.billable_cents > 0 AND u.stripe_customer_id IS NOT NULL
        ORDER BY e.id
        LIMIT $1`,
      [limit],
    );
    return rows.map((r) => ({
      id: Number(r.id),
      ownerId: Number(r.owner_id),
      billableCents: Number(r.billable_cents),
      reportIdentifier: r.report_identifier,
      stripeCustomerId: r.stripe_customer_id,
      createdAt: new Date(r.created_at),
    }));
  }

  /** Marks rows reported in one statement; returns how many were not marked already. */
  async markReported(manager: EntityManager | undefined, ids: number[], at: Date): Promise<number> {
    if (ids.length === 0) return 0;
    const result: [unknown[], number] = await (manager ?? this.dataSource).query(
      `UPDATE usage_events SET reported_at = $2 WHERE id = ANY($1::int[]) AND reported_at IS NULL`,
      [ids, at],
    );
    return result[1];
  }
}
