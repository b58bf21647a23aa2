/**
 * Runs at most `concurrency` tasks at once; up to `maxQueued` more wait their turn in order, and
 * beyond that a task is refused at once with `refuse()`. Used where each task holds a lot of
 * memory or CPU (argon2: 19 MiB and tens of milliseconds of a thread each), so a burst of
 * requests waits or is turned away instead of exhausting the machine.
 */
export class ConcurrencyLimit {
  private active = 0;
  private readonly queue: (() => void)[] = [];
  /** Tasks started since the process began (a counter tests and benches can read). */
  started = 0;
  /** The most tasks ever running at the same moment. */
  peakActive = 0;

  constructor(
    readonly concurrency: number,
    readonly maxQueued: number,
    private readonly refuse: () => Error,
  ) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error('concurrency must be a positive integer');
  }

  get running(): number {
    return this.active;
  }

  get waiting(): number {
    return this.queue.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    this.started += 1;
    this.peakActive = Math.max(this.peakActive, this.active);
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.active < this.concurrency) {
      this.active += 1;
      return Promise.resolve();
    }
    if (this.queue.length >= this.maxQueued) return Promise.reject(this.refuse());
    // The releasing task hands its slot over directly, so `active` never dips and lets a newcomer jump the queue.
    return new Promise((resolve) => this.queue.push(resolve));
  }

  private release(): void {
    const next = this.queue.shift();
    if (next) next();
    else this.active -= 1;
  }
}
