import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
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
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private current: ClaimedJob | null = null;
  /** Ends an embedding request in progress at shutdown (its claim's lease lets another instance retry). */
  private readonly stopping = new AbortController();

  constructor(
    private readonly jobs: SourceJobsService,
    private readonly embeddings: PassageEmbeddingsService,
    private readonly sources: SourcesRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get enabled(): boolean {
    return this.config.sources.jobPollMs > 0 && !this.stopped;
  }

  onApplicationBootstrap(): void {
    if (this.enabled) this.schedule(0);
  }

  /** New work was queued here: look for it now rather than at the next poll. */
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
    this.jobs.stop();
    this.stopping.abort();
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
        this.schedule(soon ? 0 : this.config.sources.jobPollMs);
      });
    }, delayMs);
    this.timer.unref();
  }

  private async drain(): Promise<void> {
    try {
      const due = await this.sources.enqueueDueRefreshes();
      if (due.length > 0) this.logger.log(`Scheduled refresh of website source(s) ${due.join(', ')}`);
      while (
        !this.stopped &&
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
