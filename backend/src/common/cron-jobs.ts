import type { Logger } from '@nestjs/common';
import type { SchedulerRegistry } from '@nestjs/schedule';
import { CronJob } from 'cron';
import { describeError } from './error-description.js';

/**
 * The cron jobs of one scheduler, wired one way (docs/architecture.md#one-billing-cycle):
 * - nothing is scheduled when `enabled` is false (RUN_SCHEDULER=false; tests run the services
 *   themselves, without a clock);
 * - times are cron expressions with seconds, in UTC, registered under their name in Nest's
 *   SchedulerRegistry (tests fire a job's tick through it);
 * - runs of one job never overlap: a tick while the last run is still going is skipped (cron's
 *   `waitForCompletion`);
 * - a run's failure is logged and never thrown, so the next tick simply tries again;
 * - `stop()` (from the owner's shutdown hook) starts no more ticks and waits for the runs in hand.
 */
export class CronJobs {
  private readonly jobs: CronJob[] = [];

  constructor(
    private readonly registry: SchedulerRegistry,
    private readonly logger: Pick<Logger, 'error'>,
    private readonly enabled: boolean,
  ) {}

  /** Schedules `run` as `name` at `cronTime`; its failure is logged as `<failure>: <the error's message>`. */
  add(name: string, cronTime: string, run: () => Promise<unknown>, failure: string): void {
    if (!this.enabled) return;
    const job = CronJob.from({
      cronTime,
      onTick: async () => {
        try {
          await run();
        } catch (error) {
          this.logger.error(`${failure}: ${describeError(error)}`);
        }
      },
      timeZone: 'UTC',
      start: true,
      waitForCompletion: true,
    });
    this.registry.addCronJob(name, job);
    this.jobs.push(job);
  }

  /** No tick starts any more; resolves when the runs in hand have ended (`waitForCompletion`). */
  async stop(): Promise<void> {
    for (const job of this.jobs) await job.stop();
  }
}
