import { describe, expect, it, jest } from '@jest/globals';
import type { Transaction, TransactionRunner } from '../../database/transaction.js';
import type { LeadsService } from '../leads/leads.service.js';
import { ConversationRetentionService } from './conversation-retention.service.js';

/** A repository holding `expired` old conversations; `lockFreeBatches` batches get the lock, then another instance holds it. */
function retention(expired: number, lockFreeBatches = Infinity) {
  let left = expired;
  let locks = 0;
  const repository = {
    tryLock: jest.fn(async () => ++locks <= lockFreeBatches),
    deleteExpired: jest.fn(async (_tx: Transaction, _now: Date, limit: number) => {
      const batch = Math.min(limit, left);
      left -= batch;
      return batch;
    }),
  };
  const transactions = { run: jest.fn((work: (tx: Transaction) => Promise<unknown>) => work({} as Transaction)) };
  const leads = { deleteExpired: jest.fn(async () => 0) };
  const service = new ConversationRetentionService(
    repository,
    transactions as unknown as TransactionRunner,
    leads as unknown as LeadsService,
  );
  return { service, repository, transactions, left: () => left };
}

describe('ConversationRetentionService', () => {
  it('deletes in batches, one transaction each, until a batch comes back short', async () => {
    const { service, repository, transactions, left } = retention(1_234);
    expect(await service.run(new Date(), 500)).toEqual({ deleted: 1_234, skipped: false });
    expect(repository.deleteExpired.mock.calls.map(([, , limit]) => limit)).toEqual([500, 500, 500]);
    expect(transactions.run).toHaveBeenCalledTimes(3);
    expect(left()).toBe(0);
  });

  it('asks once more after a full last batch, and stops on the empty one', async () => {
    const { service, repository } = retention(1_000);
    expect(await service.run(new Date(), 500)).toEqual({ deleted: 1_000, skipped: false });
    expect(repository.deleteExpired).toHaveBeenCalledTimes(3);
  });

  it('passes the same "now" to every batch, so the rule does not move during a run', async () => {
    const { service, repository } = retention(20);
    const now = new Date('2026-11-25T03:30:00Z');
    await service.run(now, 5);
    expect(new Set(repository.deleteExpired.mock.calls.map(([, at]) => at))).toEqual(new Set([now]));
  });

  it('leaves the work to the instance that holds the lock, keeping what it already deleted', async () => {
    const { service, repository, left } = retention(2_000, 2);
    expect(await service.run(new Date(), 500)).toEqual({ deleted: 1_000, skipped: true });
    expect(repository.deleteExpired).toHaveBeenCalledTimes(2);
    expect(left()).toBe(1_000);
  });
});
