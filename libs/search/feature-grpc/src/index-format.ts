import type { IndexFormatStore } from '@bindery/search/data-access';
import { logger } from '@bindery/platform/telemetry';
import type { Indexer } from './indexer';

/**
 * The index's format: 2 is impact-ordered postings. The first release kept only `sections` with a
 * multikey `terms` index; an index in that format is rebuilt once and the old index dropped after
 * it. A fresh index is simply marked. The check runs as a scheduled run (`search.index-format`), so
 * one replica at a time does it, under a lease renewed while it rebuilds.
 */
export const INDEX_FORMAT = 2;

export async function upgradeIndexFormat(format: IndexFormatStore, indexer: Indexer, signal?: AbortSignal): Promise<'current' | 'upgraded'> {
  if (await format.isMarked(INDEX_FORMAT)) return 'current';
  // The first format's multikey index on sections is the mark: only this upgrade removes it, and
  // only after the rebuild finished, so a rebuild cut short (or postings written meanwhile by
  // events) never passes for done; a failed check leaves it for the next occurrence.
  const legacy = await format.hasLegacyIndex();
  if (legacy) {
    logger.info('search index: rebuilding from the first format');
    const done = await indexer.rebuild([], undefined, signal);
    logger.info('search index: rebuilt', done);
    await format.dropLegacyIndex();
  }
  await format.mark(INDEX_FORMAT);
  return legacy ? 'upgraded' : 'current';
}
