import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { tryAdvisoryLock } from '../../database/advisory-locks.js';
import { entityManagerOf, type Transaction } from '../../database/transaction.js';

export interface CycleTotals {
  reportedEvents: number;
  reportedCents: number;
  closedSubscriptions: number;
}

/** The only place that queries `billing_cycle_runs` (one row per closed period) and takes the cycle's lock. */
@Injectable()
export class BillingCycleRunsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Whether the run for the period starting on `periodStart` (YYYY-MM-DD) completed. */
  async completed(periodStart: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM billing_cycle_runs WHERE period_start = $1 AND completed_at IS NOT NULL`,
      [periodStart],
    );
    return rows.length > 0;
  }

  /** Takes the advisory lock `key` until the transaction ends; false when another session holds it. */
  tryLock(tx: Transaction, key: number): Promise<boolean> {
    return tryAdvisoryLock(tx, key);
  }

  async start(tx: Transaction, periodStart: string): Promise<void> {
    await entityManagerOf(tx).query(
      `INSERT INTO billing_cycle_runs (period_start) VALUES ($1) ON CONFLICT DO NOTHING`,
      [periodStart],
    );
  }

  async complete(tx: Transaction, periodStart: string, totals: CycleTotals): Promise<void> {
    await entityManagerOf(tx).query(
      `UPDATE billing_cycle_runs
          SET completed_at = now(), reported_events = reported_events + $2, reported_cents = reported_cents + $3,
              closed_subscriptions = closed_subscriptions + $4
        WHERE period_start = $1`,
      [periodStart, totals.reportedEvents, totals.reportedCents, totals.closedSubscriptions],
    );
  }
}
