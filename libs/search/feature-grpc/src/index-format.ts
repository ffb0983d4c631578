import { Db, isDuplicateKey } from '@bindery/platform/mongo';
import { logger } from '@bindery/platform/telemetry';
import { COLLECTIONS } from './index-store';
import type { Indexer } from './indexer';

/**
 * The index's format: 2 is impact-ordered postings. The first release kept only `sections` with a
 * multikey `terms` index (named `postings`); an index in that format is rebuilt once, by one replica
 * (a claim with a lease, released when the rebuild fails), and the old index dropped after it. A
 * fresh index is simply marked.
 */
export const INDEX_FORMAT = 2;
const FORMAT_ID = 'format';
const LEASE_MS = 30 * 60 * 1000;
/** The first format's multikey index on `sections`. */
const LEGACY_INDEX = 'postings';

interface FormatRecord {
  _id: string;
  version?: number;
  leaseUntil?: Date;
}

export async function upgradeIndexFormat(db: Db, indexer: Indexer, now = () => new Date()): Promise<'current' | 'busy' | 'upgraded'> {
  const meta = db.collection<FormatRecord>('meta');
  if (await meta.findOne({ _id: FORMAT_ID, version: INDEX_FORMAT })) return 'current';
  try {
    // Absent, or an earlier claim whose lease ran out: this replica takes it (the _id keeps two from inserting).
    const claimed = await meta.findOneAndUpdate(
      { _id: FORMAT_ID, version: { $ne: INDEX_FORMAT }, $or: [{ leaseUntil: { $exists: false } }, { leaseUntil: { $lt: now() } }] },
      { $set: { leaseUntil: new Date(now().getTime() + LEASE_MS) } },
      { upsert: true, returnDocument: 'after' },
    );
    if (!claimed) return 'busy';
  } catch (err) {
    if (isDuplicateKey(err)) return 'busy';
    throw err;
  }
  try {
    // The first format's multikey index on sections is the mark: only this upgrade removes it, and
    // only after the rebuild finished, so a rebuild cut short (or postings written meanwhile by
    // events) never passes for done.
    const legacy = (await db.collection(COLLECTIONS.sections).indexes()).some((i) => i.name === LEGACY_INDEX);
    if (legacy) {
      logger.info('search index: rebuilding from the first format');
      const done = await indexer.rebuild([]);
      logger.info('search index: rebuilt', done);
      await db.collection(COLLECTIONS.sections).dropIndex(LEGACY_INDEX);
    }
    await meta.updateOne({ _id: FORMAT_ID }, { $set: { version: INDEX_FORMAT }, $unset: { leaseUntil: '' } });
    return legacy ? 'upgraded' : 'current';
  } catch (err) {
    // Released at once: the next check (on any replica) tries again, e.g. once content answers.
    await meta.updateOne({ _id: FORMAT_ID }, { $unset: { leaseUntil: '' } }).catch(() => undefined);
    throw err;
  }
}
