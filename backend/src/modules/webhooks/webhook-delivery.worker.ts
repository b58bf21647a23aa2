import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { WebhooksService } from './webhooks.service.js';

/**
 * Sends due webhook deliveries on this instance: every WEBHOOK_POLL_MS, and at once after an event
 * was queued here. Every instance may run it: the claim in the database (FOR UPDATE SKIP LOCKED
 * and a lease) keeps each attempt on one instance. WEBHOOK_POLL_MS=0 turns it off (tests drive
 * `WebhooksService.deliverDue` with their own clock).
 */
@Injectable()
export class WebhookDeliveryWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('WebhookDeliveries');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly webhooks: WebhooksService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get enabled(): boolean {
    return this.config.webhooks.pollMs > 0 && !this.stopped;
  }

  onApplicationBootstrap(): void {
    if (!this.enabled) return;
    this.webhooks.onQueued(() => this.kick());
    this.schedule(0);
  }

  kick(): void {
    if (!this.enabled) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.drain().finally(() => {
        this.running = undefined;
        if (!this.enabled) return;
        const soon = this.again;
        this.again = false;
        this.schedule(soon ? 0 : this.config.webhooks.pollMs);
      });
    }, delayMs);
    this.timer.unref();
  }

  private async drain(): Promise<void> {
    try {
      await this.webhooks.deliverDue();
    } catch (error) {
      // The database may be down for a while: the next poll tries again; claimed rows come due
      // again when their lease ends.
      this.logger.error(`Webhook deliveries stopped for now: ${(error as Error).message}`);
    }
  }
}
