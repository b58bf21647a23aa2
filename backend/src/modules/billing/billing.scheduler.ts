import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CronJob } from 'cron';
import { BILLING_CYCLE_CRON, METER_REPORT_CRON } from '../../common/constants.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { BillingCycleService } from './billing-cycle.service.js';
import { MeterReporter } from './meter-reporter.service.js';
import { PAYMENTS, type PaymentsPort } from './payments.port.js';

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
  private readonly jobs: CronJob[] = [];
  private tickInFlight: Promise<void> | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly registry: SchedulerRegistry,
    private readonly cycle: BillingCycleService,
    private readonly reporter: MeterReporter,
    @Inject(PAYMENTS) private readonly payments: PaymentsPort,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.runScheduler) return;
    this.add('billing-cycle', BILLING_CYCLE_CRON, () => this.runCycle());
    this.add('meter-report', METER_REPORT_CRON, () => this.tick());
  }

  async beforeApplicationShutdown(): Promise<void> {
    for (const job of this.jobs) await job.stop();
    await this.tickInFlight;
    if (this.cycle.running) await this.cycle.run();
  }

  private add(name: string, cronTime: string, onTick: () => Promise<void>): void {
    const job = CronJob.from({ cronTime, onTick, timeZone: 'UTC', start: true, waitForCompletion: true });
    this.registry.addCronJob(name, job);
    this.jobs.push(job);
  }

  private async runCycle(): Promise<void> {
    try {
      await this.cycle.run(new Date());
    } catch (error) {
      this.logger.error(`The billing cycle failed (retried every minute): ${(error as Error).message}`);
    }
  }

  private tick(): Promise<void> {
    this.tickInFlight ??= (async () => {
      try {
        if (this.cycle.running) return;
        const now = new Date();
        if (!(await this.cycle.completedFor(now))) {
          await this.runCycle();
          return;
        }
        await this.reporter.reportPending(now);
        await this.payments.flushEvents();
      } catch (error) {
        this.logger.error(`Reporting usage failed (retried in a minute): ${(error as Error).message}`);
      } finally {
        this.tickInFlight = null;
      }
    })();
    return this.tickInFlight;
  }
}
