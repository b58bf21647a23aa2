import type { SourceKind } from './bot-source.entity.js';

/** Crawls and file jobs run in separate slots: a small upload never waits behind a crawl. */
export type JobPool = 'crawl' | 'file';

export const JOB_POOLS: readonly JobPool[] = ['file', 'crawl'];

export function poolOf(kind: SourceKind): JobPool {
  return kind === 'website' ? 'crawl' : 'file';
}

/** The oldest waiting job of one owner in a pool. */
export interface WaitingJob {
  sourceId: number;
  ownerId: number;
}

export interface SlotLimits {
  /** Jobs of each pool running at once on this instance. */
  crawl: number;
  file: number;
  /** Jobs of one owner running at once in one pool on this instance (SOURCE_JOBS_PER_OWNER). */
  perOwner: number;
}

/**
 * The scheduling rule of source jobs on one instance (docs/product.md#knowledge-sources): each
 * pool has its own slots; in a pool, at most `perOwner` jobs of one owner run at once, and owners
 * take turns: the next job goes to the first owner after the one served last (by owner id,
 * wrapping round), whatever the age of the other owners' jobs. So an owner who queues many
 * crawls runs them one after another while every other owner's jobs go on beside them.
 * The database claim (SourcesRepository.claimJob) keeps a job on one instance; these counts are
 * this instance's own.
 */
export class SourceJobSlots {
  private readonly running: Record<JobPool, Map<number, number>> = { crawl: new Map(), file: new Map() };
  private readonly lastServed: Record<JobPool, number | null> = { crawl: null, file: null };

  constructor(private readonly limits: SlotLimits) {}

  /** Free slots of the pool. */
  free(pool: JobPool): number {
    let used = 0;
    for (const count of this.running[pool].values()) used += count;
    return Math.max(0, this.limits[pool] - used);
  }

  /** Owners with `perOwner` jobs running in the pool: none of their jobs may start there now. */
  ownersAtCap(pool: JobPool): number[] {
    return [...this.running[pool]].filter(([, count]) => count >= this.limits.perOwner).map(([owner]) => owner);
  }

  /**
   * The waiting jobs in the order they should be tried: owners at their cap left out, then owners
   * after the one served last first (ascending id), then the rest from the lowest id.
   */
  inTurn(pool: JobPool, waiting: readonly WaitingJob[]): WaitingJob[] {
    const capped = new Set(this.ownersAtCap(pool));
    const last = this.lastServed[pool];
    const eligible = waiting.filter((job) => !capped.has(job.ownerId));
    const byOwner = (a: WaitingJob, b: WaitingJob) => a.ownerId - b.ownerId || a.sourceId - b.sourceId;
    if (last === null) return eligible.sort(byOwner);
    const after = eligible.filter((job) => job.ownerId > last).sort(byOwner);
    const before = eligible.filter((job) => job.ownerId <= last).sort(byOwner);
    return [...after, ...before];
  }

  /** A job of `ownerId` started in the pool; false (nothing taken) when no slot or the owner's cap is full. */
  take(pool: JobPool, ownerId: number): boolean {
    const count = this.running[pool].get(ownerId) ?? 0;
    if (this.free(pool) === 0 || count >= this.limits.perOwner) return false;
    this.running[pool].set(ownerId, count + 1);
    this.lastServed[pool] = ownerId;
    return true;
  }

  /** A job of `ownerId` in the pool ended. */
  release(pool: JobPool, ownerId: number): void {
    const count = this.running[pool].get(ownerId) ?? 0;
    if (count <= 1) this.running[pool].delete(ownerId);
    else this.running[pool].set(ownerId, count - 1);
  }

  /** Jobs running in the pool. */
  runningIn(pool: JobPool): number {
    return this.limits[pool] - this.free(pool);
  }
}
