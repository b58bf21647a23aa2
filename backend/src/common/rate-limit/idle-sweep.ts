/**
 * Drops a map's idle entries, at most once a minute, so an in-process rate-limit store's memory
 * follows recent traffic only. Call `run(now)` on each hit; `isIdle` says which entries can go.
 */
export class IdleSweep<Entry> {
  private lastSweep = Date.now();

  constructor(
    private readonly entries: Map<string, Entry>,
    private readonly isIdle: (entry: Entry, now: number) => boolean,
  ) {}

  run(now: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [id, entry] of this.entries) {
      if (this.isIdle(entry, now)) this.entries.delete(id);
    }
  }
}
