import type { DataSource } from 'typeorm';
import { TransactionRunner } from './transaction.js';

/** A data source whose transactions fail with the given errors, one per run, then succeed. */
function failing(...errors: Error[]) {
  let runs = 0;
  const dataSource = {
    transaction: async <T>(work: (manager: unknown) => Promise<T>) => {
      runs += 1;
      const error = errors.shift();
      if (error) throw error;
      return work({});
    },
  } as unknown as DataSource;
  return { runner: new TransactionRunner(dataSource), runs: () => runs };
}

const deadlock = Object.assign(new Error('deadlock detected'), { driverError: { code: '40P01' } });

describe('TransactionRunner.runRetryingDeadlocks', () => {
  it('runs the work again after a deadlock, and gives its result', async () => {
    const { runner, runs } = failing(deadlock, deadlock);
    await expect(runner.runRetryingDeadlocks(() => Promise.resolve('done'))).resolves.toBe('done');
    expect(runs()).toBe(3);
  });

  it('gives up after the attempts allowed, with the deadlock', async () => {
    const { runner, runs } = failing(deadlock, deadlock, deadlock);
    await expect(runner.runRetryingDeadlocks(() => Promise.resolve('done'))).rejects.toBe(deadlock);
    expect(runs()).toBe(3);
  });

  it('never runs again after any other failure', async () => {
    const unique = Object.assign(new Error('duplicate key'), { driverError: { code: '23505' } });
    const { runner, runs } = failing(unique);
    await expect(runner.runRetryingDeadlocks(() => Promise.resolve('done'))).rejects.toBe(unique);
    expect(runs()).toBe(1);
  });
});
