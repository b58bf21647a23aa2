import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CONVERSATION_OUTCOME_CRON } from '../../common/constants.js';
import { CronJobs } from '../../common/cron-jobs.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { ConversationOutcomesService } from './conversation-outcomes.service.js';

/**
 * The outcome job (CONVERSATION_OUTCOME_CRON), only where RUN_SCHEDULER is true. Every instance
 * may run it: the service's advisory lock lets one decide at a time, and a missed tick is caught
 * up by the next (it decides everything due).
 */
@Injectable()
export class ConversationOutcomesScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly jobs: CronJobs;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    registry: SchedulerRegistry,
    private readonly outcomes: ConversationOutcomesService,
  ) {
    this.jobs = new CronJobs(registry, new Logger('ConversationOutcomesScheduler'), config.runScheduler);
  }

  onApplicationBootstrap(): void {
    this.jobs.add(
      'conversation-outcomes',
      CONVERSATION_OUTCOME_CRON,
      () => this.outcomes.run(new Date()),
      'Deciding conversation outcomes failed (retried in 5 minutes)',
    );
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.jobs.stop();
  }
}
