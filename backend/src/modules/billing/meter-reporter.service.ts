import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Transaction } from '../../database/transaction.js';
import { METER_REPORT_BATCH, METER_REPORT_CONCURRENCY } from '../../common/constants.js';
import { UsageLedgerService, type UnreportedUsage } from '../usage/usage-ledger.service.js';
import { PAYMENTS, type PaymentsPort } from './payments.port.js';
import { describeError } from '../../common/error-description.js';

/**
 * Sends billable ledger rows (billable_cents > 0, reported_at IS NULL) to the payment provider as
 * meter events, then marks them reported.
 *
 * Exactly-once billing rests on the identifier, not on this process: each row is sent with its
 * own stable `report_identifier`, which the provider de-duplicates (Stripe: uniqueness within a
 * rolling 24 h at least; the test mode: forever). So a crash, a timeout or a second instance
 * between "sent" and "marked" only causes the same event to be sent again and dropped there.
 */
@Injectable()
export class MeterReporter {
  private readonly logger = new Logger('MeterReporter');

  constructor(
    @Inject(PAYMENTS) private readonly payments: PaymentsPort,
    private readonly ledger: UsageLedgerService,
  ) {}

  /**
   * The frequent pass (every minute), outside any transaction: each batch is sent a few events at
   * a time, then the accepted rows are marked in one statement. Stops after the first provider
   * failure (the rest waits for the next pass). Returns how many rows were marked.
   */
  async reportPending(now = new Date()): Promise<number> {
    let reported = 0;
    for (;;) {
      const rows = await this.ledger.findUnreported(undefined, METER_REPORT_BATCH);
      const accepted: number[] = [];
      let failed = false;
      let next = 0;
      const worker = async () => {
        while (!failed && next < rows.length) {
          const row = rows[next++];
          try {
            await this.send(row);
            accepted.push(row.id);
          } catch (error) {
            failed = true;
            this.logger.warn(`Reporting usage ${row.reportIdentifier} failed (retried later): ${describeError(error)}`);
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(METER_REPORT_CONCURRENCY, rows.length) }, worker));
      // A crash before this line leaves the rows unmarked: they are sent again, with the same
      // identifiers, and the provider keeps one of each.
      reported += await this.ledger.markReported(undefined, accepted, now);
      if (failed || rows.length < METER_REPORT_BATCH) return reported;
    }
  }

  /**
   * The monthly job's pass: everything, inside its transaction (`tx`). A failure throws, so
   * the job's transaction rolls back and nothing is marked that was not sent.
   */
  async reportAll(tx: Transaction, now: Date): Promise<{ events: number; cents: number }> {
    let events = 0;
    let cents = 0;
    for (;;) {
      const rows = await this.ledger.findUnreported(tx, METER_REPORT_BATCH);
      for (const row of rows) await this.send(row, tx);
      events += await this.ledger.markReported(
        tx,
        rows.map((row) => row.id),
        now,
      );
      cents += rows.reduce((sum, row) => sum + row.billableCents, 0);
      if (rows.length < METER_REPORT_BATCH) return { events, cents };
    }
  }

  private send(row: UnreportedUsage, tx?: Transaction): Promise<void> {
    return this.payments.reportUsage(
      {
        customerId: row.stripeCustomerId,
        identifier: row.reportIdentifier,
        valueCents: row.billableCents,
        timestamp: row.createdAt,
      },
      tx,
    );
  }
}
