import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CronJobs } from '../../common/cron-jobs.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { MonthlyReportService } from './monthly-report.service.js';

/**
 * Every hour at :00:10 UTC (just after the billing cycle's 00:00 on the 3rd). A run mails the
 * accounts whose reported period has ended in their time zone and that have no report yet; on most
 * hours of the month there is none, and a run costs one query.
 */
export const MONTHLY_REPORT_CRON = '10 0 * * * *';

/** The `monthly-report` job, where RUN_SCHEDULER is true; the claims make runs on several instances harmless. */
@Injectable()
export class MonthlyReportScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('MonthlyReportScheduler');
  private readonly jobs: CronJobs;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    registry: SchedulerRegistry,
    private readonly reports: MonthlyReportService,
  ) {
    this.jobs = new CronJobs(registry, this.logger, config.runScheduler);
  }

  onApplicationBootstrap(): void {
    this.jobs.add(
      'monthly-report',
      MONTHLY_REPORT_CRON,
      () => this.reports.run(new Date()),
      'The monthly report run failed (retried next hour)',
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.jobs.stop();
  }
}
