import { freshReadsRequired, noteTrailingRead } from './fresh-reads';

export interface TrailingCacheOptions {
  /** how long an entry may answer after it was loaded; the bound on how far a read may trail its source */
  maxAgeMs: number;
  /** the most entries kept (least recently used go first) */
  maxEntries?: number;
  /** milliseconds; injectable so tests move time instead of waiting */
  clock?: () => number;
}

interface Entry<V> {
  at: number;
  generation: number;
  value: Promise<V>;
}

/**
 * A memory of reads that many requests repeat (an organization's tree, a user's grants), each entry
 * answering for at most `maxAgeMs` after it was loaded. It is a copy that may trail its source, so:
 * - a call that must read fresh (it is confirming a denial, see fresh-reads) never uses it;
 * - every answer from it is noted as a trailing read, so a denial resting on it is confirmed;
 * - `invalidateAll()` forgets everything at once: the service calls it when its own writes commit,
 *   so what it acknowledged holds on its next read; another replica's writes show within `maxAgeMs`.
 * A load that began before an invalidation is never kept.
 */
export class TrailingCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private generation = 0;
  private readonly clock: () => number;
  private readonly maxEntries: number;

  constructor(private readonly options: TrailingCacheOptions) {
    this.clock = options.clock ?? Date.now;
    this.maxEntries = options.maxEntries ?? 10_000;
  }

  async get(key: string, load: () => Promise<V>): Promise<V> {
    if (this.options.maxAgeMs <= 0 || freshReadsRequired()) return load();
    const now = this.clock();
    const hit = this.entries.get(key);
    if (hit && hit.generation === this.generation && now - hit.at < this.options.maxAgeMs) {
      // most recently used last
      this.entries.delete(key);
      this.entries.set(key, hit);
      noteTrailingRead();
      return hit.value;
    }
    const entry: Entry<V> = { at: now, generation: this.generation, value: load() };
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    entry.value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return entry.value;
  }

  /** Forgets every entry, including loads under way. */
  invalidateAll(): void {
    this.generation += 1;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
