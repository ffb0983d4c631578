import { DomainError, invalid } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { isDuplicateKey } from '@bindery/platform/mongo';
import { safeFetch } from '@bindery/platform/outbound-http';
import { PermanentRunFailure, RunContext } from '@bindery/platform/runs';
import { logger } from '@bindery/platform/telemetry';
import { newId } from '@bindery/shared/ids';
import type { ContentChange, FileNode, InsertFileItem } from '@bindery/content/domain';
import type { ContentDeps } from '../content-deps';
import type { WebsiteImports } from './import-ports';
import { applyIngestedChanges, editableSpace } from '../revisions/apply-changes.service';
import { crawlSite, scopeOf } from './crawl-site';
import { markdownOf } from './html-to-markdown';
import { storeImages } from './import-images';
import { planTree, PlannedPage } from './page-tree';

/** The run kind of a website import. */
export const WEBSITE_IMPORT_RUN = 'content.website-import';

/** A website import run's input: where to, from where, and who asked (the run acts as that caller). */
export interface ImportInput {
  spaceId: string;
  changeRequestId?: string;
  url: string;
  /** the revision the pages are added to; empty = the space's current revision at write time */
  baseRevisionId: string;
  /** true moves the space's current revision (a live edit); false only writes the revision (a change request's) */
  updateCurrent: boolean;
  userId: string;
  isInstanceAdmin: boolean;
}

/** What a completed import run holds as its result. */
export interface ImportResult {
  revision: string;
  parentRevision: string;
  importedResources: number;
  totalResources: number;
  pages: { id: string; sourceURL: string }[];
}

export function startUrlOf(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid('The url is not a valid URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('The url must use http or https.');
  return url;
}

/** The revision's idempotency key: a run writes at most one revision, whichever attempt gets there first. */
const revisionKeyOf = (runId: string) => `import:${runId}`;

/** Refusals that trying again cannot change (a 404 site, a refused address, a locked space) fail the run at once. */
function permanentIfRefused(err: unknown): unknown {
  if (err instanceof DomainError && err.kind !== 'unavailable' && err.kind !== 'internal' && err.kind !== 'conflict') return new PermanentRunFailure(err.message);
  return err;
}

/**
 * The run of a website import: crawls the site (crawl-site.ts), stores its images as files of the
 * space, converts each page's main content to a document (links between imported pages become page
 * references), places the pages by their URL paths and writes them as one revision, once. Progress is
 * the pages fetched of those found so far; a cancel stops the crawl at its next page and nothing is
 * written. A takeover after a crash crawls again; the revision carries the run's key (a unique index),
 * so whichever attempt writes first wins and a later one answers that revision.
 */
export async function runWebsiteImport(deps: ContentDeps, imports: WebsiteImports, input: ImportInput, ctx: RunContext): Promise<ImportResult> {
  const caller: Caller = { userId: input.userId, isInstanceAdmin: input.isInstanceAdmin };
  const key = revisionKeyOf(ctx.run._id);
  try {
    const first = await editableSpace(deps, caller, input.spaceId, input.updateCurrent);
    const spaceId = first.space._id;
    const written = await deps.revisions.findByMergeKey(spaceId, key);
    if (written) return resultOf(written._id, written.parents[0] ?? '', ctx.run.result);
    const start = startUrlOf(input.url);
    const stopIfAsked = () => {
      if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error('The import was stopped.');
    };
    const crawl = await crawlSite(start, {
      limits: imports.limits,
      allowPrivate: imports.allowPrivate,
      fetch: imports.fetch ?? safeFetch,
      onPage: async (done, queued) => {
        stopIfAsked();
        await ctx.progress({ done, total: done + queued, message: 'pages fetched' });
        stopIfAsked();
      },
    });
    const { planned, duplicates, refOfUrl } = planTree(crawl.pages, scopeOf(start).prefix);
    stopIfAsked();
    // Images: stored once each through the same ingestion as insert_files; one that fails is left as a link.
    const images = await storeImages(deps, spaceId, [...new Set(planned.flatMap((p) => p.page.parsed.images))], crawl.bytes, imports.limits.maxBytes);
    const { files } = images;
    let changes: { changes: ContentChange[]; pageIds: string[] };
    try {
      stopIfAsked();
      changes = pageChanges(planned, refOfUrl, images.refOfUrl, files);
    } catch (err) {
      await deps.files.discard(spaceId, [...files.values()]);
      throw err;
    }
    const imported = planned.length + files.size;
    const total = imported + crawl.skipped + duplicates + images.failed;
    const pages = planned.map((p, i) => ({ id: changes.pageIds[i], sourceURL: p.page.url }));
    try {
      const applied = await applyIngestedChanges(deps, caller, first, changes.changes, files, {
        baseRevisionId: input.baseRevisionId,
        updateCurrent: input.updateCurrent,
        revisionType: 'edits',
        pageIds: changes.pageIds,
        revisionKey: key,
      });
      logger.info('website import: completed', { run: ctx.run._id, pages: planned.length, files: files.size, skipped: total - imported, revision: applied.revision._id });
      return { revision: applied.revision._id, parentRevision: applied.parentRevisionId, importedResources: imported, totalResources: total, pages };
    } catch (err) {
      const other = isDuplicateKey(err) ? await deps.revisions.findByMergeKey(spaceId, key) : null;
      if (other) return resultOf(other._id, other.parents[0] ?? '', { importedResources: imported, totalResources: total, pages });
      throw err;
    }
  } catch (err) {
    throw permanentIfRefused(err);
  }
}

/** The result of a run whose revision an earlier attempt wrote (counts as that attempt left them, when it did). */
function resultOf(revision: string, parentRevision: string, known?: Record<string, unknown>): ImportResult {
  return {
    revision,
    parentRevision,
    importedResources: (known?.['importedResources'] as number) ?? 0,
    totalResources: (known?.['totalResources'] as number) ?? 0,
    pages: (known?.['pages'] as ImportResult['pages']) ?? [],
  };
}

/**
 * The batch: the stored images as insert_files (20 per change, the official limit), then one
 * insert_page per page, parents first, with ids chosen here so a page's `into` names its parent.
 * Links to imported pages become `./<page ref>.md`, images `./<file ref>`.
 */
function pageChanges(planned: PlannedPage[], pageRefOfUrl: Map<string, string>, fileRefOfUrl: Map<string, string>, files: Map<InsertFileItem, FileNode>) {
  const pageIds = planned.map(() => newId());
  const idOf = new Map(planned.map((p, i) => [p, pageIds[i]]));
  const changes: ContentChange[] = [];
  const items = [...files.keys()];
  for (let i = 0; i < items.length; i += 20) changes.push({ operation: 'insert_files', files: items.slice(i, i + 20) });
  for (const p of planned) {
    const markdown = markdownOf(p.page.parsed, {
      link: (url) => (pageRefOfUrl.has(url) ? `./${pageRefOfUrl.get(url)}.md` : undefined),
      image: (url) => (fileRefOfUrl.has(url) ? `./${fileRefOfUrl.get(url)}` : undefined),
    });
    changes.push({
      operation: 'insert_page',
      ref: p.ref,
      ...(p.parent ? { into: idOf.get(p.parent)! } : {}),
      ...(p.page.parsed.title ? { title: p.page.parsed.title.slice(0, 200) } : {}),
      document: { markdown },
    });
  }
  return { changes, pageIds };
}
