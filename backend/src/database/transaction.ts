import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { isDeadlock } from '../common/postgres-errors.js';

declare const opaque: unique symbol;

/**
 * One open database transaction, as services and ports see it: a handle they pass along to
 * repositories, which alone can unwrap it (`entityManagerOf`). Services never touch TypeORM.
 */
export interface Transaction {
  readonly [opaque]: 'Transaction';
}

/** Repositories only: the TypeORM manager behind a transaction handle. */
export function entityManagerOf(tx: Transaction): EntityManager {
  return tx as unknown as EntityManager;
}

/** Repositories only: a transaction handle for a manager TypeORM opened. */
export function transactionOf(manager: EntityManager): Transaction {
  return manager as unknown as Transaction;
}

/** Runs work in one transaction: committed when `work` resolves, rolled back when it throws. */
@Injectable()
export class TransactionRunner {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.dataSource.transaction((manager) => work(transactionOf(manager)));
  }

  /**
   * `run`, again when PostgreSQL ended it to break a deadlock (up to `attempts` runs in all). Only
   * for work whose every effect is in the database (a rolled-back run left nothing behind): a chat
   * answer's record and charge, whose rows share the analytics rollup's rows with background jobs
   * that change many conversations at once (docs/decisions/0019-analytics-at-a-million-messages.md).
   */
  async runRetryingDeadlocks<T>(work: (tx: Transaction) => Promise<T>, attempts = 3): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.run(work);
      } catch (error) {
        if (!isDeadlock(error) || attempt >= attempts) throw error;
      }
    }
  }
}
