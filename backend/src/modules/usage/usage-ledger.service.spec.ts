import { describe, expect, it } from '@jest/globals';
import type { StatementRunner } from '../../database/statement.js';
import type { Transaction } from '../../database/transaction.js';
import type { UsersService } from '../users/users.service.js';
import type { UsageLedgerRepository } from './usage-ledger.repository.js';
import { UsageLedgerService, type ChargeInput } from './usage-ledger.service.js';

/**
 * What the ledger service decides before the database (a price must be whole cents) and the
 * uncharged answer's row. The users and ledger repositories are in-memory fakes.
 */

interface Owner {
  creditsCents: number;
  isSystem: boolean;
}

function ledgerWith(owners: Record<number, Owner>) {
  const rows: Array<Record<string, unknown>> = [];
  const users = {};
  const repository = {
    insert: async (_tx: Transaction, row: Record<string, unknown>) => {
      rows.push(row);
      return rows.length;
    },
  };
  const statements = {
    begin: () => ({}),
    run: async () => {
      throw new Error('a refused charge never reaches the database');
    },
  };
  const service = new UsageLedgerService(
    repository as unknown as UsageLedgerRepository,
    users as unknown as UsersService,
    statements as unknown as StatementRunner,
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

// How the credits are spent and the row split is one statement (UsersRepository.addCreditSpend,
// UsageLedgerRepository.addCharge), so it is tested on the database: test/integration/usage-ledger.spec.ts
// (credits first, the system account, the period from the 3rd, 50 concurrent charges, an owner gone).
describe('UsageLedgerService.chargeAnsweredMessage', () => {
  it('refuses a price that is not a whole, non-negative number of cents, writing nothing', async () => {
    const { service, rows } = ledgerWith({ 1: { creditsCents: 500, isSystem: false } });
    for (const price of [-1, 2.5, Number.NaN]) {
      await expect(service.chargeAnsweredMessage(tx, answer(1, price))).rejects.toThrow('priceCents');
    }
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
