import type { SiblingSlugs } from '@bindery/content/domain';

/** At most this many page slugs are held, over every cached parent (about 100 bytes each). */
const CAPACITY = 200_000;

/**
 * The slugs under a parent in a stored revision, by the revision's page-map address: what a batch of
 * changes learned about a place is there for the next batch written on top of it, so that a batch does
 * not read every sibling again (a space or change request of 10,000 root pages would read them all per
 * batch). The address names the content, so an entry never goes stale; the least recently used go first.
 * Entries are never changed (a draft copies what it takes).
 */
export class SiblingSlugsCache {
  private readonly entries = new Map<string, SiblingSlugs>();
  private held = 0;

  constructor(private readonly capacity = CAPACITY) {}

  private static key(spaceId: string, pagesRoot: string, parent: string | null): string {
    return `${spaceId}\u0000${pagesRoot}\u0000${parent ?? ''}`;
  }

  get(spaceId: string, pagesRoot: string, parent: string | null): SiblingSlugs | undefined {
    const key = SiblingSlugsCache.key(spaceId, pagesRoot, parent);
    const found = this.entries.get(key);
    if (found) {
      this.entries.delete(key);
      this.entries.set(key, found);
    }
    return found;
  }

  set(spaceId: string, pagesRoot: string, parent: string | null, slugs: SiblingSlugs): void {
    if (slugs.size > this.capacity) return;
    const key = SiblingSlugsCache.key(spaceId, pagesRoot, parent);
    const before = this.entries.get(key);
    if (before) {
      this.held -= before.size;
      this.entries.delete(key);
    }
    this.entries.set(key, slugs);
    this.held += slugs.size;
    for (const [oldest, entry] of this.entries) {
      if (this.held <= this.capacity) break;
      this.entries.delete(oldest);
      this.held -= entry.size;
    }
  }
}

/** One per process: entries are keyed by content, so every service instance may share them. */
export const siblingSlugsCache = new SiblingSlugsCache();
