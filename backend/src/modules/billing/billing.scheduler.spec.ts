import { describe, expect, it, jest } from '@jest/globals';
import { SchedulerRegistry } from '@nestjs/schedule';
import { nextPeriodStart } from '../../common/billing-period.js';
import type { AppConfig } from '../../config/config.js';
import type { BillingCycleService } from './billing-cycle.service.js';
import { BillingScheduler } from './billing.scheduler.js';
import type { MeterReporter } from './meter-reporter.service.js';
import type { PaymentsPort } from './payments.port.js';

function scheduler(runScheduler: boolean, completed = true) {
  const registry = new SchedulerRegistry();
  const cycle = {
    running: false,
    run: jest.fn(async () => ({ ran: true })),
    completedFor: jest.fn(async () => completed),
  };
  const reporter = { reportPending: jest.fn(async () => 0) };
  const payments = { flushEvents: jest.fn(async () => undefined) };
  const instance = new BillingScheduler(
    { runScheduler } as AppConfig,
    registry,
    cycle as unknown as BillingCycleService,
    reporter as unknown as MeterReporter,
    payments as unknown as PaymentsPort,
  );
  return { instance, registry, cycle, reporter, payments };
}

describe('BillingScheduler', () => {
  it('schedules the cycle at 00:00 UTC on the 3rd and the reporter every minute', async () => {
    const { instance, registry } = scheduler(true);
    instance.onApplicationBootstrap();
    try {
      const cycle = registry.getCronJob('billing-cycle');
      expect(cycle.nextDate().toJSDate().toISOString()).toBe(nextPeriodStart(new Date()).toISOString());
      const report = registry.getCronJob('meter-report').nextDate().toJSDate().getTime();
      expect(report - Date.now()).toBeLessThanOrEqual(60_000);
    } finally {
      await instance.beforeApplicationShutdown();
    }
  });

  it('schedules nothing where RUN_SCHEDULER is false', () => {
    const { instance, registry } = scheduler(false);
    instance.onApplicationBootstrap();
    expect(registry.getCronJobs().size).toBe(0);
  });

  it('each minute reports usage, or first catches up a cycle that did not complete', async () => {
    const done = scheduler(true, true);
    done.instance.onApplicationBootstrap();
    await done.registry.getCronJob('meter-report').fireOnTick();
    expect(done.reporter.reportPending).toHaveBeenCalledTimes(1);
    expect(done.payments.flushEvents).toHaveBeenCalledTimes(1);
    expect(done.cycle.run).not.toHaveBeenCalled();
    await done.instance.beforeApplicationShutdown();

    const missed = scheduler(true, false);
    missed.instance.onApplicationBootstrap();
    await missed.registry.getCronJob('meter-report').fireOnTick();
    expect(missed.cycle.run).toHaveBeenCalledTimes(1);
    expect(missed.reporter.reportPending).not.toHaveBeenCalled();
    await missed.instance.beforeApplicationShutdown();
  });
});
