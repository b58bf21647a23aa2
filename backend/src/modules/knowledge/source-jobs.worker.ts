import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { SOURCE_JOB_SLOTS } from '../../common/constants.js';
import { FIRST_LOOK_AFTER_START_MS, PollingLoop } from '../../common/polling-loop.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { PassageEmbeddingsService } from './passage-embeddings.service.js';
import { SourceJobsService } from './source-jobs.service.js';
import { JOB_POOLS, poolOf, SourceJobSlots, type JobPool } from './source-job-slots.js';
import { SourcesRepository, type ClaimedJob } from './sources.repository.js';
import { describeError } from '../../common/error-description.js';

interface RunningJob {
  job: ClaimedJob;
  pool: JobPool;
  /** Stops the job when its source is gone (deleted, or re-queued) while it runs. */
  abort: AbortController;
  done: Promise<void>;
}

/**
 * Runs extraction jobs on this instance, then embedding jobs (an extraction job waiting goes
 * first, so a new upload is not held up by vectors): every SOURCE_JOBS_POLL_MS it queues the
 * website refreshes whose schedule is due, then fills its free slots with waiting jobs, and it
 * looks at once after an upload on this instance or when a job ends (`kick`). Crawls and file
 * jobs have separate slots, owners take turns and each runs at most SOURCE_JOBS_PER_OWNER jobs
 * per pool here (source-job-slots.ts), so no owner's crawls hold back another owner's upload.
 * Every instance may run it: the claim in the database keeps each job on one instance, and
 * queueing a due refresh is one atomic UPDATE, so it is queued once however many instances look.
 * Every SOURCE_JOB_SLOTS.watchMs it checks that its running jobs still hold their claims: a crawl
 * whose source was deleted (by itself, with its bot or its account, on any instance) is aborted
 * within about that time, and writes nothing. On shutdown it waits for the jobs in hand (a crawl
 * is given back); a job of an instance that died is taken over when its lease ends.
 */
@Injectable()
export class SourceJobsWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('SourceJobs');
  private readonly loop: PollingLoop;
  private readonly slots: SourceJobSlots;
  /** The jobs running here, by their claim's token. */
  private readonly running = new Map<string, RunningJob>();
  private watch: NodeJS.Timeout | undefined;
  /** Ends an embedding request in progress at shutdown (its claim's lease lets another instance retry). */
  private readonly stopping = new AbortController();

  constructor(
    private readonly jobs: SourceJobsService,
    private readonly embeddings: PassageEmbeddingsService,
    private readonly sources: SourcesRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.loop = new PollingLoop(config.sources.jobPollMs, () => this.drain());
    this.slots = new SourceJobSlots({
      crawl: SOURCE_JOB_SLOTS.crawls,
      file: SOURCE_JOB_SLOTS.files,
      perOwner: config.sources.jobsPerOwner,
    });
  }

  onApplicationBootstrap(): void {
    if (!this.loop.enabled) return;
    this.loop.start(FIRST_LOOK_AFTER_START_MS);
    this.watch = setInterval(() => void this.checkClaims(), SOURCE_JOB_SLOTS.watchMs);
    this.watch.unref();
  }

  /** New work was queued here: look for it now rather than at the next poll. */
  kick(): void {
    this.loop.kick();
  }

  /**
   * The source was deleted on this instance: its job, if it runs here, stops now rather than at
   * the next check of the claims.
   */
  sourceRemoved(sourceId: number): void {
    for (const entry of this.running.values()) if (entry.job.sourceId === sourceId) entry.abort.abort();
  }

  async beforeApplicationShutdown(): Promise<void> {
    const stopped = this.loop.stop();
    clearInterval(this.watch);
    this.jobs.stop();
    this.stopping.abort();
    await stopped;
    await Promise.allSettled([...this.running.values()].map((running) => running.done));
  }

  private async drain(): Promise<void> {
    try {
      const due = await this.sources.enqueueDueRefreshes();
      if (due.length > 0) this.logger.log(`Scheduled refresh of website source(s) ${due.join(', ')}`);
      do {
        await this.fillSlots();
      } while (this.loop.enabled && (await this.embeddings.runNext(this.stopping.signal)));
    } catch (error) {
      // The database may be down for a while: the next poll tries again.
      this.logger.error(`Source jobs stopped for now: ${describeError(error)}`);
    }
  }

  /** Starts waiting jobs while their pool has a free slot. */
  private async fillSlots(): Promise<void> {
    for (const pool of JOB_POOLS) {
      while (this.loop.enabled && this.slots.free(pool) > 0) {
        const job = await this.jobs.claimNext(pool, this.slots);
        if (!job) break;
        this.start(job);
      }
    }
  }

  private start(job: ClaimedJob): void {
    const pool = poolOf(job.kind);
    if (!this.slots.take(pool, job.ownerId)) {
      // Never so (claimNext leaves out owners at their cap); given back rather than run over it.
      void this.sources.releaseJob(job).catch(() => undefined);
      return;
    }
    const abort = new AbortController();
    const done = this.jobs
      .run(job, abort.signal)
      .catch(async (error: unknown) => {
        // The database failed mid-job: the job is given back for the next poll.
        this.logger.error(`Source ${job.sourceId}: job stopped: ${describeError(error)}`);
        await this.sources.releaseJob(job).catch(() => undefined);
        return 'later' as const;
      })
      .then((outcome) => {
        this.slots.release(pool, job.ownerId);
        this.running.delete(job.token);
        // A slot is free: the next job starts now. A job given back because the PDF reader is busy
        // waits for the next poll rather than being claimed again at once.
        if (outcome === 'done' || abort.signal.aborted) this.loop.kick();
      });
    this.running.set(job.token, { job, pool, abort, done });
  }

  /** Aborts the running jobs whose claim no longer holds (their source deleted or re-queued). */
  private async checkClaims(): Promise<void> {
    const running = [...this.running.values()];
    if (running.length === 0) return;
    let held: Set<string>;
    try {
      held = await this.sources.claimsHeld(running.map((entry) => entry.job));
    } catch {
      return; // the database is unreachable: the next check tries again
    }
    for (const entry of running) {
      if (!held.has(entry.job.token) && !entry.abort.signal.aborted && this.running.has(entry.job.token)) {
        this.logger.log(`Source ${entry.job.sourceId} was removed or re-queued while it was read; stopping its job.`);
        entry.abort.abort();
      }
    }
  }
}
