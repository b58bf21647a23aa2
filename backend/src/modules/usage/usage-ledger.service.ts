import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import {
  partsOf,
  StatementRunner,
  type SqlValue,
  type Statement,
  type StatementRow,
} from '../../database/statement.js';
import type { Transaction } from '../../database/transaction.js';
import { AppError } from '../../common/app-error.js';
import { isoDate, periodStartFor } from '../../common/billing-period.js';
import {
  UsageLedgerRepository,
  type AnsweredMessageUsage,
  type NotChargedReason,
  type OwnerBillingRow,
  type UnreportedUsage,
} from './usage-ledger.repository.js';
import { UsersService, type CreditSpend } from '../users/users.service.js';

export type { NotChargedReason, OwnerBillingRow, UnreportedUsage };

export interface ChargeInput extends AnsweredMessageUsage {
  /** When the answer completed; defaults to now. Decides the billing period. */
  at?: Date;
}

export interface ChargeResult {
  usageEventId: number;
  /** Taken from the owner's free credits. */
  creditsCents: number;
  /** Left to bill through the payment provider (reported as a meter event). */
  billableCents: number;
}

/** An answer's usage in a statement: the owner and the price are the lock's; the message id may come from another part. */
export type UsageInStatement = Omit<ChargeInput, 'ownerId' | 'messageId' | 'priceCents'> & {
  messageId: number | null | SqlValue;
};

/** The owner's row locked and the answer's price spent, first in a statement (UsageLedgerService.lockOwnerIn). */
export interface OwnerLock {
  readonly ownerId: number;
  readonly priceCents: number;
  readonly spend: CreditSpend;
}

export type OwnerBillingCode = 'PAYMENT_FAILED' | 'SETUP_REQUIRED' | 'OUT_OF_CREDITS';

export interface OwnerBillingState {
  canServe: boolean;
  code?: OwnerBillingCode;
}

/**
 * The ledger's write path: one `usage_events` row per answered message, free credits first.
 *
 * The system account (the landing page's demo bot) is never billed: its row records the tier's
 * price as covered by credits (the house pays; `credits + billable = price` holds), its own
 * credit balance is left untouched, and nothing is billable, so nothing is ever reported.
 */
@Injectable()
export class UsageLedgerService {
  constructor(
    private readonly ledger: UsageLedgerRepository,
    private readonly users: UsersService,
    private readonly statements: StatementRunner,
  ) {}

  /**
   * Charges one answered message INSIDE the caller's transaction (pass its tx): spends free
   * credits first, atomically (concurrent charges never take the balance below zero), and writes
   * exactly one ledger row, in one statement. If the caller's transaction rolls back, nothing was charged.
   */
  async chargeAnsweredMessage(tx: Transaction, input: ChargeInput): Promise<ChargeResult> {
    const statement = this.statements.begin();
    const charge = this.chargeIn(statement, this.lockOwnerIn(statement, input.ownerId, input.priceCents), input);
    return charge.read(await this.statements.run(statement, tx));
  }

  /**
   * Records an answer the bot could not give INSIDE the caller's transaction, without charging it
   *: its one ledger row is 0 cents (price, credits, billable) and
   * says why, so no credit is spent, the budget and spend figures do not move and the meter
   * reporter (billable rows only) never sends it. The tokens are kept: the model did run.
   */
  async recordUnchargedAnswer(
    tx: Transaction,
    input: Omit<ChargeInput, 'priceCents'>,
    reason: NotChargedReason,
  ): Promise<ChargeResult> {
    const usageEventId = await this.ledger.insert(tx, this.unchargedRow(input, reason));
    return { usageEventId, creditsCents: 0, billableCents: 0 };
  }

  /**
   * The first part of an answer's charge in a statement (docs/decisions/0016-chat-path-cost.md):
   * the owner's row locked and `priceCents` taken from the free credits (0 for an answer that is
   * not charged: the lock alone). Parts that insert rows referencing the owner wait for its `done`
   * value, so the lock comes first and two charges of one owner queue instead of deadlocking.
   * Then `chargeIn` or `recordUnchargedAnswerIn` with the same value.
   */
  lockOwnerIn(statement: Statement, ownerId: number, priceCents: number): OwnerLock {
    if (!Number.isInteger(priceCents) || priceCents < 0) {
      throw new Error(`priceCents must be a non-negative integer, got ${priceCents}`);
    }
    return { ownerId, priceCents, spend: this.users.spendCreditsIn(statement, ownerId, priceCents) };
  }

  /**
   * `chargeAnsweredMessage` as a statement's part, after `lockOwnerIn` (its price is charged); the
   * answer's message id may come from another part. `read` throws 404 when the owner no longer exists.
   */
  chargeIn(statement: Statement, lock: OwnerLock, input: UsageInStatement): { read(row: StatementRow): ChargeResult } {
    const { at: completedAt, ...usage } = input;
    const at = completedAt ?? new Date();
    const written = this.ledger.addCharge(partsOf(statement), lock.spend, {
      ...usage,
      ownerId: lock.ownerId,
      priceCents: lock.priceCents,
      periodStart: isoDate(periodStartFor(at)),
      reportIdentifier: `usage_${randomUUID()}`,
      createdAt: at,
    });
    return {
      read: (row) => {
        const charged = written.read(row);
        if (!charged) throw AppError.notFound('The bot owner no longer exists.');
        return { usageEventId: charged.id, creditsCents: charged.creditsCents, billableCents: charged.billableCents };
      },
    };
  }

  /** `recordUnchargedAnswer` as a statement's part, after `lockOwnerIn` with a price of 0. */
  recordUnchargedAnswerIn(
    statement: Statement,
    lock: OwnerLock,
    input: UsageInStatement,
    reason: NotChargedReason,
  ): { read(row: StatementRow): ChargeResult } {
    const written = this.ledger.addInsert(partsOf(statement), {
      ...this.unchargedRow({ ...input, ownerId: lock.ownerId }, reason),
      onlyIf: lock.spend.done,
    });
    return {
      read: (row) => {
        const recorded = written.read(row);
        if (!recorded) throw AppError.notFound('The bot owner no longer exists.');
        return { usageEventId: recorded.id, creditsCents: 0, billableCents: 0 };
      },
    };
  }

  /** An uncharged answer's ledger row: 0 cents, the reason, the tokens kept. */
  private unchargedRow<M>(
    input: Omit<ChargeInput, 'priceCents' | 'messageId'> & { messageId: M },
    reason: NotChargedReason,
  ) {
    const { at: completedAt, ...usage } = input;
    const at = completedAt ?? new Date();
    return {
      ...usage,
      priceCents: 0,
      creditsCents: 0,
      billableCents: 0,
      periodStart: isoDate(periodStartFor(at)),
      reportIdentifier: `usage_${randomUUID()}`,
      createdAt: at,
      notChargedReason: reason,
    };
  }

  /**
   * May this owner's bots answer now? (chat answers 402 with the code when not.)
   * - the system account: always;
   * - a missing or deleted account: SETUP_REQUIRED;
   * - a failed payment (hasPaid=false): PAYMENT_FAILED until the card is fixed;
   * - a subscription: yes (usage past the credits is billed);
   * - no subscription: only while free credits last, then OUT_OF_CREDITS.
   */
  async getOwnerBillingState(ownerId: number, tx?: Transaction): Promise<OwnerBillingState> {
    return ownerBillingState(await this.ledger.findOwnerBillingRow(ownerId, tx));
  }

  /**
   * getOwnerBillingState on an owner row a caller already read in a larger query (the chat's bot
   * row carries its owner's; null: no such account).
   */
  billingStateOf(owner: OwnerBillingRow | null): OwnerBillingState {
    return ownerBillingState(owner);
  }

  /** Billable rows not yet reported to the payment provider, oldest first (the meter reporter's queue). */
  findUnreported(tx: Transaction | undefined, limit: number): Promise<UnreportedUsage[]> {
    return this.ledger.findUnreported(tx, limit);
  }

  /** Records that these rows' meter events were accepted; returns how many were not marked yet. */
  markReported(tx: Transaction | undefined, usageEventIds: number[], at: Date): Promise<number> {
    return this.ledger.markReported(tx, usageEventIds, at);
  }
}

/**
 * The one rule for whether an owner's bots may answer, on an already loaded owner row (null: no
 * such account). `getOwnerBillingState` loads the row; readers that load it in a larger query (the
 * widget's public face) call this directly. See `getOwnerBillingState` for the cases.
 */
export function ownerBillingState(owner: OwnerBillingRow | null): OwnerBillingState {
  if (!owner || owner.deleted) return { canServe: false, code: 'SETUP_REQUIRED' };
  if (owner.isSystem) return { canServe: true };
  if (owner.hasPaid === false) return { canServe: false, code: 'PAYMENT_FAILED' };
  if (owner.subscriptionItemId) return { canServe: true };
  if (owner.creditsCents > 0) return { canServe: true };
  return { canServe: false, code: 'OUT_OF_CREDITS' };
}
