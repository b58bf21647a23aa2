import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { BILLING_CYCLE_CRON, METER_REPORT_CRON } from '../../common/constants.js';
import { CronJobs } from '../../common/cron-jobs.js';
import { describeError } from '../../common/error-description.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { BillingCycleService } from './billing-cycle.service.js';
import { MeterReporter } from './meter-reporter.service.js';
import { PAYMENTS, type PaymentsPort } from './payments.port.js';

const CYCLE_FAILED = 'The billing cycle failed (retried every minute)';

/**
 * The billing jobs, only where RUN_SCHEDULER is true (the default; set it false on all but one
 * instance if you like — the advisory lock and the identifiers make extra runs harmless anyway):
 * - `billing-cycle`: 00:00 UTC on the 3rd; it only calls BillingCycleService.run;
 * - `meter-report`: every minute, reports new billable usage, delivers pending test-mode events,
 *   and catches up a cycle that did not complete (the server was down on the 3rd).
 */
@Injectable()
export class BillingScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('BillingScheduler');
  private readonly jobs: CronJobs;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    registry: SchedulerRegistry,
    private readonly cycle: BillingCycleService,
    private readonly reporter: MeterReporter,
    @Inject(PAYMENTS) private readonly payments: PaymentsPort,
  ) {
    this.jobs = new CronJobs(registry, this.logger, config.runScheduler);
  }

  onApplicationBootstrap(): void {
    this.jobs.add('billing-cycle', BILLING_CYCLE_CRON, () => this.cycle.run(new Date()), CYCLE_FAILED);
    this.jobs.add('meter-report', METER_REPORT_CRON, () => this.tick(), 'Reporting usage failed (retried in a minute)');
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.jobs.stop();
    if (this.cycle.running) await this.cycle.run();
  }

  private async tick(): Promise<void> {
    if (this.cycle.running) return;
    const now = new Date();
    if (!(await this.cycle.completedFor(now))) {
      // Logged as the cycle's failure, not the reporter's: the next minute tries the cycle again.
      await this.cycle.run(now).catch((error: unknown) => {
        this.logger.error(`${CYCLE_FAILED}: ${describeError(error)}`);
      });
      return;
    }
    await this.reporter.reportPending(now);
    await this.payments.flushEvents();
  }
}
