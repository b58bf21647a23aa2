import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CronJobs } from './cron-jobs.js';

function gate() {
  let resolve!: () => void;
  const promise = new Promise<void>((res) => (resolve = res));
  return { promise, resolve };
}

describe('CronJobs', () => {
  const stops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
  });

  function cronJobs(enabled = true) {
    const registry = new SchedulerRegistry();
    const logger = { error: jest.fn() };
    const jobs = new CronJobs(registry, logger, enabled);
    stops.push(() => jobs.stop());
    return { registry, logger, jobs };
  }

  it('registers a started job by name, its next run in UTC', () => {
    const { registry, jobs } = cronJobs();
    jobs.add('nightly', '0 30 3 * * *', async () => undefined, 'Nightly failed');
    const job = registry.getCronJob('nightly');
    expect(job.isActive).toBe(true);
    const next = job.nextDate().toJSDate();
    expect([next.getUTCHours(), next.getUTCMinutes(), next.getUTCSeconds()]).toEqual([3, 30, 0]);
  });

  it('schedules nothing when disabled', () => {
    const { registry, jobs } = cronJobs(false);
    const run = jest.fn(async () => undefined);
    jobs.add('nightly', '* * * * * *', run, 'Nightly failed');
    expect(registry.getCronJobs().size).toBe(0);
  });

  it('a tick while the last run is still going is skipped', async () => {
    const { registry, jobs } = cronJobs();
    const running = gate();
    const run = jest.fn(() => running.promise);
    jobs.add('report', '0 * * * * *', run, 'Report failed');
    const job = registry.getCronJob('report');
    const first = job.fireOnTick();
    const second = job.fireOnTick();
    await new Promise((resolve) => setImmediate(resolve));
    expect(run).toHaveBeenCalledTimes(1);
    running.resolve();
    await Promise.all([first, second]);
    await job.fireOnTick();
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('logs a failed run with its description, and the next tick runs again', async () => {
    const { registry, logger, jobs } = cronJobs();
    const run = jest
      .fn<() => Promise<void>>()
      .mockRejectedValueOnce(new Error('database down'))
      .mockResolvedValueOnce(undefined);
    jobs.add('retention', '0 30 3 * * *', run, 'Retention failed (retried tomorrow)');
    const job = registry.getCronJob('retention');
    await expect(job.fireOnTick()).resolves.toBeUndefined();
    expect(logger.error).toHaveBeenCalledWith('Retention failed (retried tomorrow): database down');
    await job.fireOnTick();
    expect(run).toHaveBeenCalledTimes(2);
    expect(logger.error).toHaveBeenCalledTimes(1);
  });

  it('stop() ends the schedule and waits for the run in hand', async () => {
    const { registry, jobs } = cronJobs();
    const running = gate();
    let finished = false;
    jobs.add('cycle', '0 0 0 3 * *', () => running.promise.then(() => (finished = true)), 'Cycle failed');
    const job = registry.getCronJob('cycle');
    void job.fireOnTick();
    await new Promise((resolve) => setImmediate(resolve));
    let stopped = false;
    const stopping = jobs.stop().then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    running.resolve();
    await stopping;
    expect(finished).toBe(true);
    expect(job.isActive).toBe(false);
  });
});
