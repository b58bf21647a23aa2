import { describe, expect, it } from '@jest/globals';
import type { Transaction } from '../../database/transaction.js';
import type { UsersService } from '../users/users.service.js';
import type { UsageLedgerRepository } from './usage-ledger.repository.js';
import { UsageLedgerService, type ChargeInput } from './usage-ledger.service.js';

/**
 * How one answered message is charged (docs/product.md, prices and free credits): free credits
 * first, the rest billable; the house's system account never billed; the row dated into the
 * billing period of the answer. The users and ledger repositories are in-memory fakes.
 */

interface Owner {
  creditsCents: number;
  isSystem: boolean;
}

function ledgerWith(owners: Record<number, Owner>) {
  const rows: Array<Record<string, unknown>> = [];
  const users = {
    // As the repository's single UPDATE does: take what the balance allows, never below zero.
    spendCredits: async (ownerId: number, priceCents: number) => {
      const owner = owners[ownerId];
      if (!owner) return null;
      const takenCents = owner.isSystem ? 0 : Math.min(owner.creditsCents, priceCents);
      owner.creditsCents -= takenCents;
      return { takenCents, isSystem: owner.isSystem };
    },
  };
  const repository = {
    insert: async (_tx: Transaction, row: Record<string, unknown>) => {
      rows.push(row);
      return rows.length;
    },
  };
  const service = new UsageLedgerService(
    repository as unknown as UsageLedgerRepository,
    users as unknown as UsersService,
  );
  return { service, rows, owners };
}

const tx = {} as Transaction;
const answer = (ownerId: number, priceCents: number, at = new Date('2026-11-20T10:00:00Z')): ChargeInput => ({
  ownerId,
  botId: 7,
  messageId: 100,
  modelTier: 'gpt-4o',
  upstreamModel: 'gpt-4o',
  priceCents,
  promptTokens: 10,
  completionTokens: 4,
  at,
});

describe('UsageLedgerService.chargeAnsweredMessage', () => {
  it('spends free credits first and bills only the rest, once the credits run out', async () => {
    const { service, rows, owners } = ledgerWith({ 1: { creditsCents: 7, isSystem: false } });
    expect(await service.chargeAnsweredMessage(tx, answer(1, 5))).toEqual({
      usageEventId: 1,
      creditsCents: 5,
      billableCents: 0,
    });
    expect(await service.chargeAnsweredMessage(tx, answer(1, 5))).toMatchObject({ creditsCents: 2, billableCents: 3 });
    expect(await service.chargeAnsweredMessage(tx, answer(1, 5))).toMatchObject({ creditsCents: 0, billableCents: 5 });
    expect(owners[1].creditsCents).toBe(0);
    expect(rows.map((row) => [row.priceCents, row.creditsCents, row.billableCents])).toEqual([
      [5, 5, 0],
      [5, 2, 3],
      [5, 0, 5],
    ]);
  });

  it('never bills the system account: the price is recorded as covered, its balance untouched', async () => {
    const { service, rows, owners } = ledgerWith({ 2: { creditsCents: 0, isSystem: true } });
    expect(await service.chargeAnsweredMessage(tx, answer(2, 4))).toMatchObject({ creditsCents: 4, billableCents: 0 });
    expect(owners[2].creditsCents).toBe(0);
    expect(rows[0]).toMatchObject({ priceCents: 4, creditsCents: 4, billableCents: 0 });
  });

  it('dates the row into the billing period of the answer, from the 3rd', async () => {
    const { service, rows } = ledgerWith({ 1: { creditsCents: 0, isSystem: false } });
    await service.chargeAnsweredMessage(tx, answer(1, 3, new Date('2026-12-02T23:59:59.999Z')));
    await service.chargeAnsweredMessage(tx, answer(1, 3, new Date('2026-12-03T00:00:00.000Z')));
    expect(rows.map((row) => row.periodStart)).toEqual(['2026-11-03', '2026-12-03']);
    expect(new Set(rows.map((row) => row.reportIdentifier)).size).toBe(2);
  });

  it('refuses a price that is not a whole, non-negative number of cents, writing nothing', async () => {
    const { service, rows } = ledgerWith({ 1: { creditsCents: 500, isSystem: false } });
    for (const price of [-1, 2.5, Number.NaN]) {
      await expect(service.chargeAnsweredMessage(tx, answer(1, price))).rejects.toThrow('priceCents');
    }
    expect(rows).toEqual([]);
  });

  it('answers 404 when the owner no longer exists, writing nothing', async () => {
    const { service, rows } = ledgerWith({});
    await expect(service.chargeAnsweredMessage(tx, answer(9, 3))).rejects.toMatchObject({ status: 404 });
    expect(rows).toEqual([]);
  });
});

describe('UsageLedgerService.recordUnchargedAnswer', () => {
  it('writes one 0-cent row that says why, and spends no credit', async () => {
    const { service, rows, owners } = ledgerWith({ 1: { creditsCents: 7, isSystem: false } });
    const { priceCents: _price, ...usage } = answer(1, 5, new Date('2026-12-03T00:00:00.000Z'));
    expect(await service.recordUnchargedAnswer(tx, usage, 'unanswered')).toEqual({
      usageEventId: 1,
      creditsCents: 0,
      billableCents: 0,
    });
    expect(owners[1].creditsCents).toBe(7);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      priceCents: 0,
      creditsCents: 0,
      billableCents: 0,
      notChargedReason: 'unanswered',
      periodStart: '2026-12-03',
      promptTokens: 10,
      completionTokens: 4,
    });
    expect(rows[0].reportIdentifier).toMatch(/^usage_/);
  });
});
