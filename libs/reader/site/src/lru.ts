/**
 * A bounded map, least recently used entry forgotten first, with an optional lifetime per entry.
 * `load` shares one promise between concurrent requests for the same key and forgets a failure.
 */
export class Lru<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(
    private readonly max: number,
    private readonly ttlMs = Infinity,
    private readonly clock: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.clock()) {
      this.entries.delete(key);
      return undefined;
    }
    // Moved to the end: the most recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, ttlMs = this.ttlMs): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.clock() + ttlMs });
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as string);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Forgets every entry whose key starts with `prefix`. */
  deletePrefix(prefix: string): void {
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}

/** Promises kept in an Lru: concurrent loads of one key share one call; a rejected one is not kept. */
export class PromiseCache<V> {
  private readonly lru: Lru<Promise<V>>;

  constructor(max: number, ttlMs = Infinity, clock: () => number = Date.now) {
    this.lru = new Lru<Promise<V>>(max, ttlMs, clock);
  }

  load(key: string, loader: () => Promise<V>): Promise<V> {
    const hit = this.lru.get(key);
    if (hit) return hit;
    const promise = loader();
    this.lru.set(key, promise);
    promise.catch(() => {
      if (this.lru.get(key) === promise) this.lru.delete(key);
    });
    return promise;
  }

  deletePrefix(prefix: string): void {
    this.lru.deletePrefix(prefix);
  }

  delete(key: string): void {
    this.lru.delete(key);
  }

  clear(): void {
    this.lru.clear();
  }
}
