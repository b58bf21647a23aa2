import { jest } from '@jest/globals';
import type { Transaction } from '../../database/transaction.js';
import { AccountDataRegistry } from './account-data.js';

describe('AccountDataRegistry', () => {
  const tx = {} as Transaction;

  it('runs each phase over every holder in registration order and gathers what went', async () => {
    const calls: string[] = [];
    const registry = new AccountDataRegistry();
    registry.register({
      deleteBeforeAccount: async (ownerId) => {
        calls.push(`first before ${ownerId}`);
        return ['2 bots', '1 categories'];
      },
    });
    registry.register({
      deleteWithinAccount: async (ownerId, within) => {
        calls.push(`second within ${ownerId} ${within === tx}`);
      },
    });
    registry.register({
      deleteBeforeAccount: async () => {
        calls.push('third before');
        return ['3 files'];
      },
      deleteWithinAccount: async () => {
        calls.push('third within');
      },
    });

    expect(await registry.deleteBeforeAccount(7)).toEqual(['2 bots', '1 categories', '3 files']);
    await registry.deleteWithinAccount(7, tx);
    expect(calls).toEqual(['first before 7', 'third before', 'second within 7 true', 'third within']);
  });

  it('stops at the first failing holder, so the caller never reaches the account itself', async () => {
    const registry = new AccountDataRegistry();
    const later = jest.fn(async (): Promise<string[]> => []);
    registry.register({ deleteBeforeAccount: () => Promise.reject(new Error('storage down')) });
    registry.register({ deleteBeforeAccount: later });

    await expect(registry.deleteBeforeAccount(7)).rejects.toThrow('storage down');
    expect(later).not.toHaveBeenCalled();
  });

  it('answers nothing when no module holds data', async () => {
    const registry = new AccountDataRegistry();
    expect(await registry.deleteBeforeAccount(7)).toEqual([]);
    await expect(registry.deleteWithinAccount(7, tx)).resolves.toBeUndefined();
  });
});
