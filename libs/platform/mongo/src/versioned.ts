import { ClientSession, Collection, Filter, UpdateFilter } from 'mongodb';
import { conflict } from '@bindery/platform/errors';

/**
 * Optimistic concurrency, the one primitive for "change this document only if it is still the
 * version I read". A guarded document carries `version`, raised by one on every guarded write
 * (absent reads as 0). Writers that read the same version race; exactly one wins, the others see
 * `false` and decide again from a fresh read.
 */
export interface Versioned {
  _id: string;
  version?: number;
}

export const versionOf = (doc: { version?: number }): number => doc.version ?? 0;

/** The filter matching the document only at version `read` (absent counts as 0). */
export function atVersion(read: number): { version: number } | { $or: Array<Record<string, unknown>> } {
  return read === 0 ? { $or: [{ version: 0 }, { version: { $exists: false } }] } : { version: read };
}

/**
 * Applies `update` to document `id` if its version is still `read`, raising the version by one.
 * True when it applied; false when another writer changed (or removed) the document since it was read.
 */
export async function updateIfVersion<T extends Versioned>(col: Collection<T>, id: string, read: number, update: UpdateFilter<T>, session?: ClientSession): Promise<boolean> {
  const u = update as Record<string, Record<string, unknown>>;
  const guarded = { ...u, $inc: { ...(u.$inc ?? {}), version: 1 } } as unknown as UpdateFilter<T>;
  const r = await col.updateOne({ _id: id, ...atVersion(read) } as Filter<T>, guarded, { session });
  return r.matchedCount === 1;
}

/**
 * Read, decide, write — with no lost update. `decide` sees the current document (or null) and
 * returns the update to make and the result to give, or just a result to write nothing. The write
 * is conditional on the version read; when another writer came first, it reads and decides again
 * (up to `maxAttempts`, then a 409 conflict).
 */
export async function compareAndSet<T extends Versioned, R>(
  col: Collection<T>,
  id: string,
  decide: (doc: T | null) => { update?: UpdateFilter<T>; result: R },
  { maxAttempts = 100, session }: { maxAttempts?: number; session?: ClientSession } = {},
): Promise<R> {
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const doc = (await col.findOne({ _id: id } as Filter<T>, { session })) as T | null;
    const { update, result } = decide(doc);
    if (!update) return result;
    if (!doc) throw new Error('compareAndSet: an update was decided for a document that does not exist');
    if (await updateIfVersion(col, id, versionOf(doc), update, session)) return result;
    // Lost the race: back off (jittered, doubling up to 32 ms) so contenders spread out.
    await new Promise((r) => setTimeout(r, Math.random() * 2 ** Math.min(attempt, 5)));
  }
  throw conflict('The resource was changed by other requests too often at the same time; try again.');
}
