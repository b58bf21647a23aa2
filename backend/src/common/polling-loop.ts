/**
 * A worker's loop on one instance: `drain` runs now and then every `pollMs` after it ends, and
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

  start(): void {
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
