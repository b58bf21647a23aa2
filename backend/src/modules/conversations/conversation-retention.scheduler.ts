import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CronJob } from 'cron';
import { CONVERSATION_RETENTION_CRON } from '../../common/constants.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { ConversationRetentionService } from './conversation-retention.service.js';

/**
 * The daily retention job (CONVERSATION_RETENTION_CRON), only where RUN_SCHEDULER is true, like
 * the billing jobs. Every instance may run it: the service's advisory lock lets one delete at a
 * time, and a missed day is caught up by the next (it deletes everything past the retention).
 */
@Injectable()
export class ConversationRetentionScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('ConversationRetentionScheduler');
  private job: CronJob | null = null;
  private inFlight: Promise<void> | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly registry: SchedulerRegistry,
    private readonly retention: ConversationRetentionService,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.runScheduler) return;
    this.job = CronJob.from({
      cronTime: CONVERSATION_RETENTION_CRON,
      onTick: () => this.tick(),
      timeZone: 'UTC',
      start: true,
      waitForCompletion: true,
    });
    this.registry.addCronJob('conversation-retention', this.job);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.job?.stop();
    await this.inFlight;
  }

  private tick(): Promise<void> {
    this.inFlight ??= this.retention
      .run(new Date())
      .then(() => undefined)
      .catch((error: unknown) => {
        this.logger.error(`Conversation retention failed (retried tomorrow): ${(error as Error).message}`);
      })
      .finally(() => {
        this.inFlight = null;
      });
    return this.inFlight;
  }
}
