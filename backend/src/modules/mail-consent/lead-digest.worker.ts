import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { FIRST_LOOK_AFTER_START_MS, PollingLoop } from '../../common/polling-loop.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { LeadNoticesService } from './lead-notices.service.js';
import { describeError } from '../../common/error-description.js';

/**
 * Sends the lead digests that are due, every LEAD_DIGEST_POLL_MS on this instance. Every instance
 * may run it: each digest item is claimed in the database once. LEAD_DIGEST_POLL_MS=0 turns it off
 * (tests call `LeadNoticesService.sendDueDigests` with their own clock).
 */
@Injectable()
export class LeadDigestWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('LeadDigests');
  private readonly loop: PollingLoop;

  constructor(
    private readonly notices: LeadNoticesService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.loop = new PollingLoop(config.mailLimits.digestPollMs, () => this.drain());
  }

  onApplicationBootstrap(): void {
    this.loop.start(FIRST_LOOK_AFTER_START_MS);
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

  private async drain(): Promise<void> {
    try {
      await this.notices.sendDueDigests();
    } catch (error) {
      // The database may be down for a while: the next poll tries again.
      this.logger.error(`Lead digests stopped for now: ${describeError(error)}`);
    }
  }
}
