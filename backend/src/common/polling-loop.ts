/**
 * How long a worker's first look at its queue waits after a start (at most one poll): the recovery
 * queries it makes would otherwise come first on the embedded database's one connection, ahead of
 * the health check and the first visitors (docs/decisions/0016-chat-path-cost.md, "Start-up: the
 * database on its own thread"). Work queued meanwhile on this instance kicks the loop at once.
 */
export const FIRST_LOOK_AFTER_START_MS = 1_000;

/**
 * A worker's loop on one instance: `drain` runs at start and then every `pollMs` after it ends, and
 * again at once when `kick` asks during a run (work queued here need not wait for the next poll).
 * One run at a time; the timer never keeps the process alive; `stop` waits for the run in hand.
 * `pollMs` 0 means off (tests drive the work themselves). `drain` handles its own errors.
 */
export class PollingLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly pollMs: number,
    private readonly drain: () => Promise<void>,
  ) {}

  get enabled(): boolean {
    return this.pollMs > 0 && !this.stopped;
  }

  /** The first run comes `firstRunInMs` from now (never later than a poll), or at once. */
  start(firstRunInMs = 0): void {
    if (this.enabled) this.schedule(Math.min(firstRunInMs, this.pollMs));
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

  /** No new run starts; resolves when the run in hand has ended. */
  async stop(): Promise<void> {
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
        this.schedule(soon ? 0 : this.pollMs);
      });
    }, delayMs);
    this.timer.unref();
  }
}
