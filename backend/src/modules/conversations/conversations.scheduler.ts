import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CONVERSATION_OUTCOME_CRON, CONVERSATION_RETENTION_CRON } from '../../common/constants.js';
import { CronJobs } from '../../common/cron-jobs.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { ConversationOutcomesService } from './conversation-outcomes.service.js';
import { ConversationRetentionService } from './conversation-retention.service.js';

/**
 * The conversation log's jobs, only where RUN_SCHEDULER is true, like the billing jobs. Every
 * instance may run them: each service's advisory lock lets one instance work at a time, and a
 * missed tick is caught up by the next (each job handles everything due, not one tick's share).
 * - `conversation-outcomes` (CONVERSATION_OUTCOME_CRON): decides the outcome of conversations
 *   quiet for 30 minutes;
 * - `conversation-retention` (CONVERSATION_RETENTION_CRON, daily): deletes conversations past
 *   their bot's retention.
 */
@Injectable()
export class ConversationsScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly jobs: CronJobs;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    registry: SchedulerRegistry,
    private readonly outcomes: ConversationOutcomesService,
    private readonly retention: ConversationRetentionService,
  ) {
    this.jobs = new CronJobs(registry, new Logger('ConversationsScheduler'), config.runScheduler);
  }

  onApplicationBootstrap(): void {
    this.jobs.add(
      'conversation-outcomes',
      CONVERSATION_OUTCOME_CRON,
      () => this.outcomes.run(new Date()),
      'Deciding conversation outcomes failed (retried in 5 minutes)',
    );
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
