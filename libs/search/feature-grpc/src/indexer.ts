import type { ContentClients } from '@bindery/content/client';
import type { IndexedPage, IndexStore } from '@bindery/search/data-access';
import { allSpaces, currentRevision, pageIdsOf, readPage, spaceExists } from './content-pages';

const BATCH = 8;
const PAGES_PER_WRITE = 200;

async function readAll(content: ContentClients, spaceId: string, revisionId: string, pageIds: string[]): Promise<{ pages: IndexedPage[]; gone: string[] }> {
  const pages: IndexedPage[] = [];
  const gone: string[] = [];
  for (let i = 0; i < pageIds.length; i += BATCH) {
    const batch = pageIds.slice(i, i + BATCH);
    const read = await Promise.all(batch.map((id) => readPage(content, spaceId, revisionId, id)));
    read.forEach((p, j) => (p ? pages.push(p) : gone.push(batch[j])));
  }
  return { pages, gone };
}

/** Keeps the index on each space's current revision: only the pages a revision changed or deleted are read again. */
export class Indexer {
  constructor(
    private readonly store: IndexStore,
    private readonly content: ContentClients,
  ) {}

  async revisionCreated(e: { organizationId: string; spaceId: string; revisionId: string; changedPages: string[]; deletedPages: string[]; isCurrent: boolean }): Promise<void> {
    if (!e.isCurrent) return;
    const known = await this.store.indexedSpace(e.spaceId);
    // A space seen for the first time is read whole: what came before this revision is not in the index.
    if (!known || known.revisionId === undefined) {
      await this.reindexSpace(e.spaceId, e.organizationId, e.revisionId);
      return;
    }
    const { pages, gone } = await readAll(this.content, e.spaceId, e.revisionId, e.changedPages);
    await this.replaceInBatches({ spaceId: e.spaceId, organizationId: e.organizationId, revisionId: e.revisionId }, [...e.deletedPages, ...gone], pages);
  }

  /**
   * Writes pages in transactions of a bounded size (a revision that changed thousands of pages, an
   * import, or a whole space is not one transaction); at least one write, which records the revision.
   */
  private async replaceInBatches(space: { spaceId: string; organizationId: string; revisionId: string }, removed: string[], pages: IndexedPage[]): Promise<void> {
    await this.store.replacePages(space, removed, pages.slice(0, PAGES_PER_WRITE));
    for (let i = PAGES_PER_WRITE; i < pages.length; i += PAGES_PER_WRITE) await this.store.replacePages(space, [], pages.slice(i, i + PAGES_PER_WRITE));
  }

  /**
   * Reads a space's revision (the current one by default) from scratch. Reading the current one, it
   * checks afterwards that it still is: a revision made meanwhile (whose event may already have been
   * indexed) would otherwise be overwritten by the older one, so the space is read again.
   */
  async reindexSpace(spaceId: string, organizationId: string, revisionId = ''): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      const list = await pageIdsOf(this.content, spaceId, revisionId);
      const { pages } = await readAll(this.content, spaceId, list.revisionId, list.pageIds);
      await this.store.clearSpace(spaceId);
      await this.replaceInBatches({ spaceId, organizationId, revisionId: list.revisionId }, [], pages);
      if (revisionId || attempt >= 3 || (await currentRevision(this.content, spaceId)) === list.revisionId) return pages.length;
    }
  }

  /**
   * Reads the given spaces again from their current revision; with none given, every live space
   * content holds (asked as this service), and what the index holds of any other space is dropped.
   * Reports each space done to `progress`; stops between spaces once `signal` fires.
   */
  async rebuild(spaceIds: string[], progress?: (done: number, total: number) => Promise<void>, signal?: AbortSignal): Promise<{ spaces: number; pages: number }> {
    const targets = spaceIds.length ? await this.store.indexedSpaces(spaceIds) : await allSpaces(this.content);
    let pages = 0;
    for (const [i, s] of targets.entries()) {
      signal?.throwIfAborted();
      if (i > 0) await progress?.(i, targets.length);
      try {
        pages += await this.reindexSpace(s._id, s.organizationId);
      } catch (err) {
        if ((err as { kind?: string }).kind !== 'not_found') throw err;
        await this.store.clearSpace(s._id);
      }
    }
    if (!spaceIds.length) {
      const live = new Set(targets.map((s) => s._id));
      // Not listed: deleted, or created while the rebuild ran (content is asked again before dropping).
      for await (const other of this.store.allSpaceIds()) {
        if (!live.has(other) && !(await spaceExists(this.content, other))) await this.store.removeSpace(other);
      }
    }
    return { spaces: targets.length, pages };
  }
}
