import type { Db } from 'mongodb';
import { RETIRED_INDEXES } from './indexes';

/** Drops the indexes of earlier versions (RETIRED_INDEXES) that are still there; run at start, after the current ones exist. */
export async function dropRetiredIndexes(db: Db): Promise<string[]> {
  const dropped: string[] = [];
  for (const [collection, names] of Object.entries(RETIRED_INDEXES)) {
    const existing = new Set((await db.collection(collection).indexes()).map((i) => i.name));
    for (const name of names.filter((n) => existing.has(n))) {
      try {
        await db.collection(collection).dropIndex(name);
        dropped.push(`${collection}.${name}`);
      } catch (err) {
        // another replica starting at the same time dropped it first
        if ((err as { codeName?: string }).codeName !== 'IndexNotFound') throw err;
      }
    }
  }
  return dropped;
}
