import { describe, expect, it, jest } from '@jest/globals';
import { SchedulerRegistry } from '@nestjs/schedule';
import type { AppConfig } from '../../config/config.js';
import { MonthlyReportScheduler } from './monthly-report.scheduler.js';
import type { MonthlyReportService } from './monthly-report.service.js';

function scheduler(runScheduler: boolean, run = jest.fn(async () => ({}))) {
  const registry = new SchedulerRegistry();
  const instance = new MonthlyReportScheduler({ runScheduler } as AppConfig, registry, {
    run,
  } as unknown as MonthlyReportService);
  return { instance, registry, run };
}

describe('MonthlyReportScheduler', () => {
  it('runs the monthly report every hour at :00:10 UTC, after the billing cycle on the 3rd', async () => {
    const { instance, registry, run } = scheduler(true);
    instance.onApplicationBootstrap();
    try {
      const next = registry.getCronJob('monthly-report').nextDate().toJSDate();
      expect(next.getUTCMinutes()).toBe(0);
      expect(next.getUTCSeconds()).toBe(10);
      expect(next.getTime() - Date.now()).toBeLessThanOrEqual(60 * 60 * 1000);
      await registry.getCronJob('monthly-report').fireOnTick();
      expect(run).toHaveBeenCalledTimes(1);
    } finally {
      await instance.beforeApplicationShutdown();
    }
  });

  it('schedules nothing where RUN_SCHEDULER is false', () => {
    const { instance, registry } = scheduler(false);
    instance.onApplicationBootstrap();
    expect(registry.getCronJobs().size).toBe(0);
  });
});
