import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CONVERSATION_RETENTION_CRON } from '../../common/constants.js';
import { CronJobs } from '../../common/cron-jobs.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { ConversationRetentionService } from './conversation-retention.service.js';

/**
 * The daily retention job (CONVERSATION_RETENTION_CRON), only where RUN_SCHEDULER is true, like
 * the billing jobs. Every instance may run it: the service's advisory lock lets one delete at a
 * time, and a missed day is caught up by the next (it deletes everything past the retention).
 */
@Injectable()
export class ConversationRetentionScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly jobs: CronJobs;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    registry: SchedulerRegistry,
    private readonly retention: ConversationRetentionService,
  ) {
    this.jobs = new CronJobs(registry, new Logger('ConversationRetentionScheduler'), config.runScheduler);
  }

  onApplicationBootstrap(): void {
    this.jobs.add(
      'conversation-retention',
      CONVERSATION_RETENTION_CRON,
      () => this.retention.run(new Date()),
      'Conversation retention failed (retried tomorrow)',
    );
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.jobs.stop();
  }
}
