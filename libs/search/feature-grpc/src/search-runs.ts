import type { ServiceRuns } from '@bindery/platform/service-runtime';
import { upgradeIndexFormat } from './index-format';
import type { Indexer } from './indexer';
import type { IndexFormatStore } from '@bindery/search/data-access';

/** The kinds of search's runs. */
export const SEARCH_RUNS = {
  /** an instance admin's rebuild: input `{spaceIds}` (none: everything), result `{spaces, pages}` */
  rebuild: 'search.rebuild',
  /** the scheduled check of the index's format (an index of the first format is rebuilt once) */
  indexFormat: 'search.index-format',
} as const;

/** Attempts of a rebuild: content may be briefly unreachable; after these the run fails with content's error. */
export const REBUILD_ATTEMPTS = 3;

/** Search's run handlers and its schedule; `checkEveryMs` is SEARCH_FORMAT_CHECK_MS. */
export function searchRuns(deps: { format: IndexFormatStore; indexer: Indexer }, checkEveryMs: number): ServiceRuns {
  return {
    handlers: {
      [SEARCH_RUNS.rebuild]: async (input, ctx) => {
        const spaceIds = (input['spaceIds'] as string[] | undefined) ?? [];
        return deps.indexer.rebuild(spaceIds, (done, total) => ctx.progress({ done, total, message: 'spaces indexed' }), ctx.signal);
      },
      [SEARCH_RUNS.indexFormat]: async (_input, ctx) => ({ outcome: await upgradeIndexFormat(deps.format, deps.indexer, ctx.signal) }),
    },
    schedules: [{ name: SEARCH_RUNS.indexFormat, kind: SEARCH_RUNS.indexFormat, everyMs: checkEveryMs }],
  };
}
