import type { Logger } from '@nestjs/common';
import { describeError } from './error-description.js';

/**
 * Work a service starts after its answer and never waits for (a mail, an alert check, a webhook
 * queued): each task is kept until it settles, its failure is logged (never thrown: nobody awaits
 * it), and `settled()` waits for every task started so far, including those started while it
 * waits. The owning service calls `settled()` from its shutdown hook, so the app stops only after
 * its background work, and tests call it to see that work done.
 */
export class BackgroundTasks {
  private readonly pending = new Set<Promise<void>>();
  /** The last task started under each key of `startInTurn`. */
  private readonly lastInTurn = new Map<string, Promise<void>>();

  constructor(private readonly logger: Pick<Logger, 'error'>) {}

  /** How many tasks are still running. */
  get size(): number {
    return this.pending.size;
  }

  /**
   * Runs `task` now (its synchronous part before this returns, as a plain call would) and keeps it
   * until it settles; a failure is logged as `<failure>: <the error's message>`.
   */
  start(task: () => Promise<unknown>, failure: string): void {
    void this.track(task, failure);
  }

  /** `start`, returning the kept promise: it settles with the task and never rejects. */
  private track(task: () => Promise<unknown>, failure: string): Promise<void> {
    const log = (error: unknown): void => this.logger.error(`${failure}: ${describeError(error)}`);
    let started: Promise<unknown>;
    try {
      started = task();
    } catch (error) {
      log(error);
      return Promise.resolve();
    }
    const tracked: Promise<void> = started.then(() => undefined, log).finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
    return tracked;
  }

  /**
   * Like `start`, but `task` begins only after the tasks started before it under the same `key`
   * have settled (requests about one address apply in order), and never before this call returns
   * (nothing of it runs before the caller's answer is sent).
   */
  startInTurn(key: string, task: () => Promise<unknown>, failure: string): void {
    const previous = this.lastInTurn.get(key) ?? Promise.resolve();
    const tracked = this.track(() => previous.then(task), failure);
    this.lastInTurn.set(key, tracked);
    void tracked.then(() => {
      if (this.lastInTurn.get(key) === tracked) this.lastInTurn.delete(key);
    });
  }

  /** Resolves when every task started so far, and any started meanwhile, has settled. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}
