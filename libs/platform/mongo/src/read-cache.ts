/**
 * A read-through cache of values derived from the database, kept correct by invalidation: the owner
 * calls `invalidate(key)` when a change feed reports a changed document and `clear()` after its own
 * writes and whenever the feed has a gap. A load that began before an invalidation never fills the
 * cache afterwards (it could carry what was just invalidated), and entries also expire after `ttlMs`
 * as a safety net. While `enabled()` is false (no live change feed) every read goes to the database.
 */
export class ReadCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();
  private readonly inflight = new Map<string, Promise<V>>();
  private epoch = 0;

  constructor(private readonly options: { ttlMs: number; maxEntries: number; enabled: () => boolean }) {}

  async get(key: string, load: () => Promise<V>): Promise<V> {
    if (!this.options.enabled()) return load();
    const hit = this.entries.get(key);
    if (hit && hit.expires > Date.now()) return hit.value;
    // Concurrent misses of one key share a single load.
    const pending = this.inflight.get(key);
    if (pending) return pending;
    const epoch = this.epoch;
    const loading = load().then((value) => {
      if (this.epoch === epoch && this.options.enabled()) this.store(key, value);
      return value;
    });
    this.inflight.set(key, loading);
    try {
      return await loading;
    } finally {
      this.inflight.delete(key);
    }
  }

  invalidate(key: string): void {
    this.epoch++;
    this.entries.delete(key);
    this.inflight.delete(key);
  }

  clear(): void {
    this.epoch++;
    this.entries.clear();
    this.inflight.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private store(key: string, value: V) {
    if (this.entries.size >= this.options.maxEntries) {
      // Oldest first: Map keeps insertion order.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expires: Date.now() + this.options.ttlMs });
  }
}
