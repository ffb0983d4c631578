import { Db } from '@bindery/platform/mongo';
import { logger } from '@bindery/platform/telemetry';
import { COLLECTIONS } from './index-store';
import type { Indexer } from './indexer';

/**
 * The index's format: 2 is impact-ordered postings. The first release kept only `sections` with a
 * multikey `terms` index (named `postings`); an index in that format is rebuilt once and the old
 * index dropped after it. A fresh index is simply marked. The check runs as a scheduled run
 * (`search.index-format`), so one replica at a time does it, under a lease renewed while it rebuilds.
 */
export const INDEX_FORMAT = 2;
const FORMAT_ID = 'format';
/** The first format's multikey index on `sections`. */
const LEGACY_INDEX = 'postings';

interface FormatRecord {
  _id: string;
  version?: number;
}

export async function upgradeIndexFormat(db: Db, indexer: Indexer, signal?: AbortSignal): Promise<'current' | 'upgraded'> {
  const meta = db.collection<FormatRecord>('meta');
  if (await meta.findOne({ _id: FORMAT_ID, version: INDEX_FORMAT })) return 'current';
  // The first format's multikey index on sections is the mark: only this upgrade removes it, and
  // only after the rebuild finished, so a rebuild cut short (or postings written meanwhile by
  // events) never passes for done; a failed check leaves it for the next occurrence.
  const legacy = (await db.collection(COLLECTIONS.sections).indexes()).some((i) => i.name === LEGACY_INDEX);
  if (legacy) {
    logger.info('search index: rebuilding from the first format');
    const done = await indexer.rebuild([], undefined, signal);
    logger.info('search index: rebuilt', done);
    await db.collection(COLLECTIONS.sections).dropIndex(LEGACY_INDEX);
  }
  await meta.updateOne({ _id: FORMAT_ID }, { $set: { version: INDEX_FORMAT } }, { upsert: true });
  return legacy ? 'upgraded' : 'current';
}
