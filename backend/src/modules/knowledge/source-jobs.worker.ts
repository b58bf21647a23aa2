import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { PollingLoop } from '../../common/polling-loop.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { PassageEmbeddingsService } from './passage-embeddings.service.js';
import { SourceJobsService } from './source-jobs.service.js';
import { SourcesRepository, type ClaimedJob } from './sources.repository.js';

/**
 * Runs extraction jobs on this instance, then embedding jobs (an extraction job waiting goes
 * first, so a new upload is not held up by vectors): every SOURCE_JOBS_POLL_MS it queues the
 * website refreshes whose schedule is due, then claims waiting jobs one at a time until none is
 * left; and it looks at once after an upload on this instance (`kick`). Every
 * instance may run it: the claim in the database keeps each job on one instance, and queueing a
 * due refresh is one atomic UPDATE, so it is queued once however many instances look. On shutdown it
 * waits for the job in hand; a job of an instance that died is taken over when its lease ends.
 */
@Injectable()
export class SourceJobsWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('SourceJobs');
  private readonly loop: PollingLoop;
  private current: ClaimedJob | null = null;
  /** Ends an embedding request in progress at shutdown (its claim's lease lets another instance retry). */
  private readonly stopping = new AbortController();

  constructor(
    private readonly jobs: SourceJobsService,
    private readonly embeddings: PassageEmbeddingsService,
    private readonly sources: SourcesRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.loop = new PollingLoop(config.sources.jobPollMs, () => this.drain());
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  /** New work was queued here: look for it now rather than at the next poll. */
  kick(): void {
    this.loop.kick();
  }

  async beforeApplicationShutdown(): Promise<void> {
    const stopped = this.loop.stop();
    this.jobs.stop();
    this.stopping.abort();
    await stopped;
  }

  private async drain(): Promise<void> {
    try {
      const due = await this.sources.enqueueDueRefreshes();
      if (due.length > 0) this.logger.log(`Scheduled refresh of website source(s) ${due.join(', ')}`);
      while (
        this.loop.enabled &&
        ((await this.jobs.runNext((job) => (this.current = job))) ||
          (await this.embeddings.runNext(this.stopping.signal)))
      ) {
        // one job after another until none is waiting
      }
    } catch (error) {
      // The database may be down for a while: the next poll tries again.
      this.logger.error(`Source jobs stopped for now: ${(error as Error).message}`);
      const held = this.current;
      this.current = null;
      if (held) await this.sources.releaseJob(held).catch(() => undefined);
    }
  }
}
