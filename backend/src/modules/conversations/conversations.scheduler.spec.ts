import { describe, expect, it, jest } from '@jest/globals';
import { SchedulerRegistry } from '@nestjs/schedule';
import type { AppConfig } from '../../config/config.js';
import type { ConversationOutcomesService } from './conversation-outcomes.service.js';
import type { ConversationRetentionService } from './conversation-retention.service.js';
import { ConversationsScheduler } from './conversations.scheduler.js';

function scheduler(runScheduler: boolean) {
  const registry = new SchedulerRegistry();
  const outcomes = { run: jest.fn(async (_now: Date) => undefined) };
  const retention = { run: jest.fn(async (_now: Date) => undefined) };
  const instance = new ConversationsScheduler(
    { runScheduler } as AppConfig,
    registry,
    outcomes as unknown as ConversationOutcomesService,
    retention as unknown as ConversationRetentionService,
  );
  return { instance, registry, outcomes, retention };
}

describe('ConversationsScheduler', () => {
  it('decides outcomes every 5 minutes and applies retention at 03:30 UTC, each job running its own service', async () => {
    const { instance, registry, outcomes, retention } = scheduler(true);
    instance.onApplicationBootstrap();
    try {
      const next = (name: string) => registry.getCronJob(name).nextDate().toJSDate();
      const outcome = next('conversation-outcomes');
      expect(outcome.getUTCMinutes() % 5).toBe(0);
      expect(outcome.getTime() - Date.now()).toBeLessThanOrEqual(5 * 60_000);
      const purge = next('conversation-retention');
      expect([purge.getUTCHours(), purge.getUTCMinutes()]).toEqual([3, 30]);

      await registry.getCronJob('conversation-outcomes').fireOnTick();
      expect([outcomes.run.mock.calls.length, retention.run.mock.calls.length]).toEqual([1, 0]);
      await registry.getCronJob('conversation-retention').fireOnTick();
      expect([outcomes.run.mock.calls.length, retention.run.mock.calls.length]).toEqual([1, 1]);
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
