import { invalid } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { SafeFetch, safeFetch } from '@bindery/platform/outbound-http';
import { logger } from '@bindery/platform/telemetry';
import { contentRevisionsV1 as pb } from '@bindery/shared/contracts';
import { newId } from '@bindery/shared/ids';
import type { ContentChange, FileNode, InsertFileItem } from '@bindery/content/domain';
import type { ContentDeps } from '../content-deps';
import { applyIngestedChanges, editableSpace } from '../revisions/apply-changes.service';
import { crawlSite, scopeOf } from './crawl-site';
import { markdownOf } from './html-to-markdown';
import { ImportJobs } from './import-jobs';
import type { CrawlLimits } from './import-settings';
import { storeImages } from './import-images';
import { planTree, PlannedPage } from './page-tree';

/** What a website import needs besides content's own dependencies. */
export interface WebsiteImports {
  jobs: ImportJobs;
  limits: CrawlLimits;
  allowPrivate: boolean;
  /** the outbound guard; replaceable in tests only */
  fetch?: SafeFetch;
}

function startUrlOf(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid('The url is not a valid URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('The url must use http or https.');
  return url;
}

/**
 * Imports a website into a space as one revision: crawls it (crawl-site.ts), stores its images as
 * files of the space, converts each page's main content to a document (links between imported pages
 * become page references) and places the pages by their URL paths. Editors and up; with
 * `updateCurrent` a locked space is refused. A refused or failing start URL is a 400 and nothing is
 * created. Progress is logged per page and kept in the `imports` job record.
 */
export async function importWebsite(deps: ContentDeps, imports: WebsiteImports, caller: Caller, req: pb.ImportWebsiteRequest): Promise<pb.ImportWebsiteReply> {
  const start = startUrlOf(req.url);
  const first = await editableSpace(deps, caller, req.spaceId, req.updateCurrent);
  const spaceId = first.space._id;
  const fetch = imports.fetch ?? safeFetch;
  const now = () => new Date(deps.clock());
  let jobId: string | undefined;
  try {
    const crawl = await crawlSite(start, {
      limits: imports.limits,
      allowPrivate: imports.allowPrivate,
      fetch,
      onPage: async (done, queued, bytes) => {
        jobId ??= await imports.jobs.start(spaceId, first.space.organizationId, start.origin, now());
        await imports.jobs.progress(jobId, { pages: done, queued, bytes }, now());
      },
    });
    const { planned, duplicates, refOfUrl } = planTree(crawl.pages, scopeOf(start).prefix);
    let changes: { changes: ContentChange[]; pageIds: string[] };

    // Images: stored once each through the same ingestion as insert_files; one that fails is left as a link.
    const images = await storeImages(deps, spaceId, [...new Set(planned.flatMap((p) => p.page.parsed.images))], crawl.bytes, imports.limits.maxBytes);
    const { files } = images;
    try {
      if (jobId) await imports.jobs.progress(jobId, { pages: planned.length, queued: 0, bytes: images.bytes }, now());
      changes = pageChanges(planned, refOfUrl, images.refOfUrl, files);
    } catch (err) {
      await deps.files.discard(spaceId, [...files.values()]);
      throw err;
    }
    const applied = await applyIngestedChanges(deps, caller, first, changes.changes, files, {
      baseRevisionId: req.baseRevisionId,
      updateCurrent: req.updateCurrent,
      revisionType: 'edits',
      pageIds: changes.pageIds,
    });
    const imported = planned.length + files.size;
    const total = imported + crawl.skipped + duplicates + images.failed;
    jobId ??= await imports.jobs.start(spaceId, first.space.organizationId, start.origin, now());
    await imports.jobs.finish(jobId, { status: 'completed', pages: planned.length, files: files.size, skipped: total - imported, revisionId: applied.revision._id }, now());
    logger.info('website import: completed', { importId: jobId, pages: planned.length, files: files.size, skipped: total - imported, revision: applied.revision._id });
    return { revisionId: applied.revision._id, parentRevisionId: applied.parentRevisionId, importedResources: imported, totalResources: total, importId: jobId };
  } catch (err) {
    if (jobId) await imports.jobs.finish(jobId, { status: 'failed', error: (err as Error).message }, now()).catch(() => undefined);
    throw err;
  }
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
