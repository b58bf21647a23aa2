/**
 * A map of at most `capacity` entries that lets the least recently used go first: what an
 * instance remembers to save a query (a bot's copy, the alert steps known to be claimed) must not
 * grow with everyone who ever came. A Map keeps its keys in insertion order, so an entry that is
 * read or written moves last, and the first key is the one to let go.
 */
export class RecentlyUsedMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) throw new Error('A RecentlyUsedMap holds at least one entry');
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value, which becomes the most recently used. */
  get(key: K): V | undefined {
    if (!this.entries.has(key)) return undefined;
    const value = this.entries.get(key) as V;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** Sets the value as the most recently used; past the capacity, the least recently used goes. */
  set(key: K, value: V): void {
    this.entries.delete(key);
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value as K);
    this.entries.set(key, value);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }
}
