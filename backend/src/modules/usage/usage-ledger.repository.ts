import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import {
  isSqlValue,
  runParts,
  sqlOf,
  sqlValue,
  StatementParts,
  type SqlValue,
  type StatementRow,
} from '../../database/statement.js';
import { entityManagerOf, type Transaction } from '../../database/transaction.js';
import type { CreditSpend } from '../users/users.service.js';

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

/** One answered message's price and tokens: what a charge is made from. */
export interface AnsweredMessageUsage {
  ownerId: number;
  botId: number | null;
  messageId: number | null;
  /** The bot's tier (the price), and the upstream model actually called. */
  modelTier: string;
  upstreamModel: string;
  /** The tier's price from MODEL_CATALOGUE, in cents; never a client-sent value. */
  priceCents: number;
  promptTokens: number;
  completionTokens: number;
}

export interface NewUsageEvent extends AnsweredMessageUsage {
  creditsCents: number;
  billableCents: number;
  periodStart: string;
  reportIdentifier: string;
  createdAt: Date;
  /** Why the answer was not charged (its row is 0 cents); null or absent when it was. */
  notChargedReason?: NotChargedReason | null;
}

/** A ledger row as a statement's part: the message id and the split may come from other parts. */
export interface NewUsageEventPart extends Omit<NewUsageEvent, 'messageId' | 'creditsCents' | 'billableCents'> {
  messageId: number | null | SqlValue;
  creditsCents: number | SqlValue;
  billableCents: number | SqlValue;
  /** Written only when this holds (e.g. the owner's credits were spent). */
  onlyIf?: SqlValue;
}

/** A written ledger row's id and split. */
export interface ChargeRow {
  id: number;
  creditsCents: number;
  billableCents: number;
}

/** Why an answer was not charged: the bot could not give it. */
export type NotChargedReason = 'unanswered';

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
 * The write side of the usage ledger. Every method that takes a transaction runs inside the caller's
 * transaction: with the embedded database's pool of ONE connection, a query issued outside it
 * would wait forever for the connection the transaction holds.
 */
@Injectable()
export class UsageLedgerRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(tx: Transaction, e: NewUsageEvent): Promise<number> {
    const parts = new StatementParts();
    const inserted = this.addInsert(parts, e);
    const id = inserted.read(await runParts(entityManagerOf(tx), parts))?.id;
    if (id === undefined) throw new Error('The usage row was not written');
    return id;
  }

  /**
   * Adds an answer's charge to a statement, taken from the owner's credits by `spend` (a part that
   * runs before, UsersRepository.addCreditSpend): free credits first, the rest billable; the system
   * account's price is recorded as covered by credits (the house pays). No row without `spend`'s owner.
   */
  addCharge(parts: StatementParts, spend: CreditSpend, e: Omit<NewUsageEventPart, 'creditsCents' | 'billableCents'>) {
    const price = parts.param(e.priceCents, 'integer');
    const credits = `CASE WHEN ${sqlOf(spend.isSystem)} THEN ${price} ELSE ${sqlOf(spend.takenCents)} END`;
    return this.addInsert(parts, {
      ...e,
      creditsCents: sqlValue(credits),
      billableCents: sqlValue(`${price} - ${credits}`),
      onlyIf: spend.done,
    });
  }

  /**
   * Adds a ledger row to a statement; values may come from the statement's other parts (the
   * answer's message id, the credits a spend took). With `onlyIf`, the row is written only when it holds.
   * `read` gives the row's id and split, or null when it was not written.
   */
  addInsert(parts: StatementParts, e: NewUsageEventPart): { read(row: StatementRow): ChargeRow | null } {
    const value = (v: unknown, type: string) => (isSqlValue(v) ? sqlOf(v) : parts.param(v, type));
    parts.with(
      'usage_event',
      `INSERT INTO usage_events
         (owner_id, bot_id, message_id, model_tier, upstream_model, price_cents, prompt_tokens,
          completion_tokens, total_tokens, credits_cents, billable_cents, period_start, report_identifier, created_at,
          not_charged_reason)
       SELECT ${parts.param(e.ownerId, 'integer')}, ${parts.param(e.botId, 'integer')}, ${value(e.messageId, 'integer')},
              ${parts.param(e.modelTier, 'varchar')}, ${parts.param(e.upstreamModel, 'varchar')},
              ${parts.param(e.priceCents, 'integer')}, ${parts.param(e.promptTokens, 'integer')},
              ${parts.param(e.completionTokens, 'integer')}, ${parts.param(e.promptTokens + e.completionTokens, 'integer')},
              ${value(e.creditsCents, 'integer')}, ${value(e.billableCents, 'integer')},
              ${parts.param(e.periodStart, 'date')}, ${parts.param(e.reportIdentifier, 'varchar')},
              ${parts.param(e.createdAt, 'timestamptz')}, ${parts.param(e.notChargedReason ?? null, 'varchar')}
        WHERE ${e.onlyIf ? sqlOf(e.onlyIf) : 'true'}
       RETURNING id, credits_cents, billable_cents`,
    );
    parts.select('usage_event', '(SELECT row_to_json(usage_event) FROM usage_event)');
    return {
      read: (row) => {
        const written = row.usage_event as { id: number; credits_cents: number; billable_cents: number } | null;
        return written
          ? {
              id: Number(written.id),
              creditsCents: Number(written.credits_cents),
              billableCents: Number(written.billable_cents),
            }
          : null;
      },
    };
  }

  async findOwnerBillingRow(ownerId: number, tx?: Transaction): Promise<OwnerBillingRow | null> {
    const manager = tx && entityManagerOf(tx);
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
  async findUnreported(tx: Transaction | undefined, limit: number): Promise<UnreportedUsage[]> {
    const manager = tx && entityManagerOf(tx);
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
  async markReported(tx: Transaction | undefined, ids: number[], at: Date): Promise<number> {
    const manager = tx && entityManagerOf(tx);
    if (ids.length === 0) return 0;
    const result: [unknown[], number] = await (manager ?? this.dataSource).query(
      `UPDATE usage_events SET reported_at = $2 WHERE id = ANY($1::int[]) AND reported_at IS NULL`,
      [ids, at],
    );
    return result[1];
  }
}
