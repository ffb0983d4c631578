import type { Db } from 'mongodb';

/**
 * Drops indexes of earlier versions that are still there (collection → index names), so that a
 * database created by an earlier version ends up with the current indexes only; run at start,
 * after the current ones exist. Answers what it dropped.
 */
export async function dropIndexesNamed(db: Db, retired: Record<string, string[]>): Promise<string[]> {
  const dropped: string[] = [];
  for (const [collection, names] of Object.entries(retired)) {
    const existing = new Set(
      (
        await db
          .collection(collection)
          .indexes()
          .catch(() => [])
      ).map((i) => i.name),
    );
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
