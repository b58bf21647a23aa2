import { Inject, Injectable, Logger } from '@nestjs/common';
import { isoDate, periodStartFor } from '../../common/billing-period.js';
import { BILLING_CYCLE_LOCK_KEY } from '../../common/constants.js';
import { TransactionRunner } from '../../database/transaction.js';
import { BillingAccountRepository } from './billing-account.repository.js';
import { UsersService } from '../users/users.service.js';
import { BillingCycleRunsRepository } from './billing-cycle-runs.repository.js';
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
 * whose handle is used for everything (the embedded database has a pool of one connection: a
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
    private readonly users: UsersService,
    private readonly runs: BillingCycleRunsRepository,
    private readonly transactions: TransactionRunner,
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
    return this.runs.completed(isoDate(periodStartFor(now)));
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

    await this.transactions.run(async (tx) => {
      if (!(await this.runs.tryLock(tx, BILLING_CYCLE_LOCK_KEY))) {
        result.skipped = 'Another instance is running the billing cycle.';
        return;
      }
      await this.runs.start(tx, result.closedPeriodEnd);

      const reported = await this.reporter.reportAll(tx, now);
      result.reportedEvents = reported.events;
      result.reportedCents = reported.cents;

      result.invoices = (
        await this.payments.closePeriod({ periodStart: closedPeriodStart, periodEnd: closedPeriodEnd }, tx)
      ).invoices;

      for (const account of await this.accounts.deletedWithSubscription(tx)) {
        await this.payments.cancelSubscription(account.subscriptionId, tx);
        await this.users.forgetSubscription(account.id, tx);
        result.closedSubscriptions += 1;
      }

      await this.runs.complete(tx, result.closedPeriodEnd, result);
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
