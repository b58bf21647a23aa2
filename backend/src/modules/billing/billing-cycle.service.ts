import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { isoDate, periodStartFor } from '../../common/billing-period.js';
import { BILLING_CYCLE_LOCK_KEY } from '../../common/constants.js';
import { BillingAccountRepository } from './billing-account.repository.js';
import { MeterReporter } from './meter-reporter.service.js';
import { PAYMENTS, type PaymentsPort } from './payments.port.js';

export interface CycleResult {
  ran: boolean;
  /** Why it did not run (another instance holds the lock). */
  skipped?: string;
  /** The period that was closed: [closedPeriodStart, closedPeriodEnd). */
  closedPeriodStart: string;
  closedPeriodEnd: string;
  reportedEvents: number;
  reportedCents: number;
  invoices: number;
  closedSubscriptions: number;
}

/**
 * The monthly job (00:00 UTC on the 3rd; also `npm run billing:cycle`): closes the period that
 * just ended. Under a PostgreSQL advisory lock, so one instance runs it, and in ONE transaction
 * whose manager is used for everything (the embedded database has a pool of one connection: a
 * query outside the transaction would wait for the connection the transaction holds):
 * 1. report every unreported billable row, deleted accounts' included (same identifiers: a row
 *    reported twice is billed once);
 * 2. close the period at the provider (the test mode invoices and "charges" the test card;
 *    Stripe invoices by itself on the anchor);
 * 3. end the subscriptions of accounts deleted during the period, with a final invoice;
 * 4. record the run. Nothing is destroyed: the new period simply starts, and monthly figures
 *    are sums over the new period's rows.
 * Running it twice is harmless: nothing is left to report, and a period is invoiced once.
 */
@Injectable()
export class BillingCycleService {
  private readonly logger = new Logger('BillingCycle');
  private inFlight: Promise<CycleResult> | null = null;

  constructor(
    @Inject(PAYMENTS) private readonly payments: PaymentsPort,
    private readonly reporter: MeterReporter,
    private readonly accounts: BillingAccountRepository,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** True while a run is under way in this process (the minute reporter then waits its turn). */
  get running(): boolean {
    return this.inFlight !== null;
  }

  run(now = new Date()): Promise<CycleResult> {
    if (!this.inFlight) {
      this.inFlight = this.runOnce(now).finally(() => {
        this.inFlight = null;
      });
    }
    return this.inFlight;
  }

  /** Whether the cycle that opened the current period has completed (the scheduler catches up if not). */
  async completedFor(now: Date): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM billing_cycle_runs WHERE period_start = $1 AND completed_at IS NOT NULL`,
      [isoDate(periodStartFor(now))],
    );
    return rows.length > 0;
  }

  private async runOnce(now: Date): Promise<CycleResult> {
    const closedPeriodEnd = periodStartFor(now);
    const closedPeriodStart = periodStartFor(new Date(closedPeriodEnd.getTime() - 1));
    const result: CycleResult = {
      ran: false,
      closedPeriodStart: isoDate(closedPeriodStart),
      closedPeriodEnd: isoDate(closedPeriodEnd),
      reportedEvents: 0,
      reportedCents: 0,
      invoices: 0,
      closedSubscriptions: 0,
    };

    await this.dataSource.transaction(async (manager) => {
      const [lock] = await manager.query<Array<{ locked: boolean }>>(`SELECT pg_try_advisory_xact_lock($1) AS locked`, [
        BILLING_CYCLE_LOCK_KEY,
      ]);
      if (!lock?.locked) {
        result.skipped = 'Another instance is running the billing cycle.';
        return;
      }
      await manager.query(`INSERT INTO billing_cycle_runs (period_start) VALUES ($1) ON CONFLICT DO NOTHING`, [
        result.closedPeriodEnd,
      ]);

      const reported = await this.reporter.reportAll(manager, now);
      result.reportedEvents = reported.events;
      result.reportedCents = reported.cents;

      result.invoices = (
        await this.payments.closePeriod({ periodStart: closedPeriodStart, periodEnd: closedPeriodEnd }, manager)
      ).invoices;

      for (const account of await this.accounts.deletedWithSubscription(manager)) {
        await this.payments.cancelSubscription(account.subscriptionId, manager);
        await this.accounts.forgetSubscription(account.id, manager);
        result.closedSubscriptions += 1;
      }

      await manager.query(
        `UPDATE billing_cycle_runs
            SET completed_at = now(), reported_events = reported_events + $2, reported_cents = reported_cents + $3,
                closed_subscriptions = closed_subscriptions + $4
          WHERE period_start = $1`,
        [result.closedPeriodEnd, result.reportedEvents, result.reportedCents, result.closedSubscriptions],
      );
      result.ran = true;
    });

    // Provider events produced above (test mode: invoice.paid / invoice.payment_failed) take
    // effect now that their transaction committed.
    await this.payments.flushEvents();
    this.logger.log(
      result.ran
        ? `Closed ${result.closedPeriodStart}..${result.closedPeriodEnd}: reported ${result.reportedEvents} event(s) ` +
            `(${result.reportedCents}¢), ${result.invoices} invoice(s), ${result.closedSubscriptions} deleted account(s) closed`
        : `Skipped: ${result.skipped}`,
    );
    return result;
  }
}
