import { connectContent, ContentClients, contentAddressSetting, ContentEvents as C } from '@bindery/content/client';
import { eventHandlers, EventHandlers, on } from '@bindery/platform/events';
import { forbidden, invalid, isDomainError, notFound } from '@bindery/platform/errors';
import { Caller, grpcService } from '@bindery/platform/grpc';
import { defineService } from '@bindery/platform/service-runtime';
import { RunStore, runMessage } from '@bindery/platform/runs';
import { searchV1 as pb } from '@bindery/shared/contracts';
import { IndexFormatStore, IndexStore, SEARCH_INDEXES, searchStores, SearchStores } from '@bindery/search/data-access';
import { Indexer } from './indexer';
import { REBUILD_ATTEMPTS, SEARCH_RUNS, searchRuns } from './search-runs';
import { checkQuery, pageAfter, pageResults, PAGES_PER_SPACE, rankPages } from './search-query';

export interface SearchDeps {
  store: IndexStore;
  format: IndexFormatStore;
  indexer: Indexer;
  content: ContentClients;
  runs: RunStore;
}

export function searchDeps(stores: SearchStores, content: ContentClients, runs: RunStore): SearchDeps {
  return { store: stores.index, format: stores.format, indexer: new Indexer(stores.index, content), content, runs };
}

const adminsOnly = (caller: Caller) => {
  if (!caller.isInstanceAdmin) throw forbidden('Rebuilding the search index is for instance admins.');
};

/** Every live space of the organization the caller can read (content decides), with its title. */
async function readableSpaces(content: ContentClients, organizationId: string, caller: Caller): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let page = '';
  do {
    const r = await content.spaces.listSpaces({ organizationId, page: { page, limit: 1000 } }, { caller });
    r.items.forEach((s) => out.set(s.id, s.title));
    page = r.page?.nextPage ?? '';
  } while (page);
  return out;
}

/** How many of the given spaces SearchSpaces takes, and how many it asks content about at once. */
export const MAX_SEARCHED_SPACES = 1000;
const SPACE_READS_AT_ONCE = 8;

/**
 * The given spaces of the organization that the caller can read (content decides, one GetSpace per
 * space as the caller, a few at a time), with their titles. A space they cannot read, a deleted one
 * or one of another organization is left out, as SearchOrganization leaves out what it does not list.
 */
async function readableAmong(content: ContentClients, organizationId: string, spaceIds: string[], caller: Caller): Promise<Map<string, string>> {
  const ids = [...new Set(spaceIds)];
  if (ids.length > MAX_SEARCHED_SPACES) throw invalid(`A search covers at most ${MAX_SEARCHED_SPACES} spaces.`);
  const titles = new Map<string, string>();
  for (let i = 0; i < ids.length; i += SPACE_READS_AT_ONCE) {
    const read = await Promise.all(
      ids.slice(i, i + SPACE_READS_AT_ONCE).map(async (spaceId) => {
        try {
          return await content.spaces.getSpace({ spaceId }, { caller });
        } catch (err) {
          if (isDomainError(err) && err.kind === 'not_found') return undefined;
          throw err;
        }
      }),
    );
    for (const space of read) if (space && space.organization === organizationId) titles.set(space.id, space.title);
  }
  return titles;
}

/** The spaces among `titles` with pages matching the query, best first, each with its best pages: a page of SearchSpaceResult. */
async function spacesWithPages(deps: SearchDeps, titles: Map<string, string>, query: string, request: pb.SearchOrganizationRequest['page']): Promise<pb.SearchReply> {
  const { pages, matches } = await rankPages(deps.store, [...titles.keys()], query);
  const spaces = new Map<string, { id: string; score: number; pages: typeof pages }>();
  for (const page of pages) {
    const s = spaces.get(page.spaceId) ?? { id: page.spaceId, score: page.score, pages: [] };
    if (s.pages.length < PAGES_PER_SPACE) s.pages.push(page);
    spaces.set(page.spaceId, s);
  }
  const ranked = [...spaces.values()].sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
  const p = pageAfter(
    ranked,
    request,
    (x) => x.score,
    (x) => x.id,
  );
  const results = await pageResults(
    deps.store,
    p.visible.flatMap((s) => s.pages),
    matches,
  );
  const items = p.visible.map((s) => ({ id: s.id, title: titles.get(s.id) ?? '', pages: results.filter((r) => r.spaceId === s.id) }));
  return { spaces: items, pages: [], page: { count: p.count, nextPage: p.nextPage } };
}

/** Search's gRPC service. A site token's caller may search its site's spaces (SearchSpaces; content limits it to its scope). */
export function searchGrpc(deps: SearchDeps) {
  return grpcService(
    pb.SearchServiceService,
    {
      async searchSpace(req, ctx) {
        checkQuery(req.query);
        // As the caller: a space they cannot read (or a deleted one) is not found.
        await deps.content.spaces.getSpace({ spaceId: req.spaceId }, { caller: ctx.caller });
        const { pages, matches } = await rankPages(deps.store, [req.spaceId], req.query);
        const p = pageAfter(
          pages,
          req.page,
          (x) => x.score,
          (x) => `${x.spaceId}:${x.pageId}`,
        );
        const items = await pageResults(deps.store, p.visible, matches);
        return { pages: items, spaces: [], page: { count: p.count, nextPage: p.nextPage } };
      },
      async searchOrganization(req, ctx) {
        checkQuery(req.query);
        return spacesWithPages(deps, await readableSpaces(deps.content, req.organizationId, ctx.caller), req.query, req.page);
      },
      async searchSpaces(req, ctx) {
        checkQuery(req.query);
        return spacesWithPages(deps, await readableAmong(deps.content, req.organizationId, req.spaceIds, ctx.caller), req.query, req.page);
      },
      async rebuild(req, ctx) {
        adminsOnly(ctx.caller);
        const { run } = await deps.runs.enqueue({ kind: SEARCH_RUNS.rebuild, input: { spaceIds: req.spaceIds }, createdBy: ctx.caller.userId, maxAttempts: REBUILD_ATTEMPTS });
        return { run: runMessage(run) };
      },
      async getRebuild(req, ctx) {
        adminsOnly(ctx.caller);
        const run = await deps.runs.get(req.runId);
        if (run?.kind !== SEARCH_RUNS.rebuild) throw notFound('Rebuild run');
        return runMessage(run);
      },
      async cancelRebuild(req, ctx) {
        adminsOnly(ctx.caller);
        if ((await deps.runs.get(req.runId))?.kind !== SEARCH_RUNS.rebuild) throw notFound('Rebuild run');
        return runMessage((await deps.runs.cancel(req.runId))!);
      },
    },
    { siteReadable: ['searchSpaces'] },
  );
}

// Reasons for handlers that run outside the consumer's transaction (each is idempotent by itself).
const READS_CONTENT =
  "reads the revision's pages from content over gRPC and writes a large space's postings in bounded batches; idempotent: indexing a revision again writes the same postings";
const WHOLE_SPACE =
  'rewrites every section of the spaces, more than one short transaction should hold; idempotent: writing the same organization again, or deleting what is gone, changes nothing';

/** What the index does with content's events. */
export function contentHandlers(deps: SearchDeps): EventHandlers {
  const { store, indexer } = deps;
  return eventHandlers(
    on(C.spaceCreated, (d, _e, ctx) => store.knownSpace(d.spaceId, d.organizationId, ctx)),
    on(C.revisionCreated, (d) => indexer.revisionCreated(d), { idempotentOutsideTransaction: READS_CONTENT }),
    on(C.spaceRestored, (d) => indexer.reindexSpace(d.spaceId, d.organizationId).then(() => undefined), { idempotentOutsideTransaction: READS_CONTENT }),
    on(C.spacePurged, (d) => store.removeSpace(d.spaceId), { idempotentOutsideTransaction: WHOLE_SPACE }),
    on(C.spaceTransferred, (d) => store.moveToOrganization([d.spaceId], d.organizationId), { idempotentOutsideTransaction: WHOLE_SPACE }),
    on(C.collectionTransferred, (d) => store.moveToOrganization(d.spaces, d.organizationId), { idempotentOutsideTransaction: WHOLE_SPACE }),
  );
}

/** How search reaches content: its gRPC clients in production, a stand-in in the service tier of the tests. */
export type ConnectContent = (address: string, deadlineMs: number) => ContentClients;

/** Search: an inverted index of the current revision of every space, in its own database, fed by content's events. */
export const searchServiceWith = (connect: ConnectContent) =>
  defineService({
    name: 'search',
    settings: {
      ...contentAddressSetting,
      /** deadline of a call to content */
      SEARCH_CONTENT_DEADLINE_MS: { kind: 'int', default: 30000, min: 100, max: 600000 },
      /** how often the index format is checked (a scheduled run; an index of an earlier format is rebuilt once) */
      SEARCH_FORMAT_CHECK_MS: { kind: 'int', default: 600_000, min: 100, max: 86400000 },
    },
    indexes: SEARCH_INDEXES,
    outboxCollections: [],
    deps: ({ db, config, runs }): SearchDeps => searchDeps(searchStores(db), connect(config.CONTENT_GRPC_URL, config.SEARCH_CONTENT_DEADLINE_MS), runs),
    dispose: async (deps) => (deps.content as unknown as { close(): void }).close(),
    grpc: (deps) => [searchGrpc(deps)],
    consumers: (deps) => ({ 'search.index': { from: ['content'], handlers: contentHandlers(deps) } }),
    runs: (deps, config) => searchRuns(deps, config.SEARCH_FORMAT_CHECK_MS),
  });

export const searchService = searchServiceWith(connectContent);
