import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { FIRST_LOOK_AFTER_START_MS, PollingLoop } from '../../common/polling-loop.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { WebhooksService } from './webhooks.service.js';
import { describeError } from '../../common/error-description.js';

/**
 * Sends due webhook deliveries on this instance: every WEBHOOK_POLL_MS, and at once after an event
 * was queued here. Every instance may run it: the claim in the database (a lease on the endpoint
 * and on the delivery) keeps each attempt on one instance and each endpoint to one request at a
 * time; a pass claims fairly across owners (`WebhooksService.deliverDue`). WEBHOOK_POLL_MS=0 turns it off (tests drive
 * `WebhooksService.deliverDue` with their own clock).
 */
@Injectable()
export class WebhookDeliveryWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('WebhookDeliveries');
  private readonly loop: PollingLoop;

  constructor(
    private readonly webhooks: WebhooksService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.loop = new PollingLoop(config.webhooks.pollMs, () => this.drain());
  }

  onApplicationBootstrap(): void {
    if (!this.loop.enabled) return;
    this.webhooks.onQueued(() => this.loop.kick());
    this.loop.start(FIRST_LOOK_AFTER_START_MS);
  }

  kick(): void {
    this.loop.kick();
  }

  beforeApplicationShutdown(): Promise<void> {
    this.webhooks.beginShutdown();
    return this.loop.stop();
  }

  private async drain(): Promise<void> {
    try {
      await this.webhooks.deliverDue();
    } catch (error) {
      // The database may be down for a while: the next poll tries again; claimed rows come due
      // again when their lease ends.
      this.logger.error(`Webhook deliveries stopped for now: ${describeError(error)}`);
    }
  }
}
