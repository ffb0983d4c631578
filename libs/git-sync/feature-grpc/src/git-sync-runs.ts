import { posix } from 'node:path';
import { ExportPage, exportPaths, frontmatterOf, join, mergePageFile, mergeText, PageFileFields, pageFileText, SyncRecord, writeSummary } from '@bindery/git-sync/domain';
import type { Caller } from '@bindery/platform/grpc';
import { officialPage, officialReusableContent } from '@bindery/content/client';
import { PermanentRunFailure, RunContext } from '@bindery/platform/runs';
import type { ServiceRuns } from '@bindery/platform/service-runtime';
import { logger } from '@bindery/platform/telemetry';
import { newAssets } from './export-assets';
import { exportIncludes, relativeIncludes } from './git-includes';
import { runImport } from './git-import';
import { GitRepository } from './git-repository';
import { GIT_SYNC_RUNS, GitSyncDeps } from './git-sync.service';
import { flatPages, olderThanLastSync, openRemote, pagePrint, saveSync, summaryPrint, SyncInput, toExportPages } from './git-sync-common';
import { withRunLimits } from './run-limits';

/** Content's `/pages/<id>` and `/files/<id>` destinations as paths relative to the page's file. */
function relativeLinks(markdown: string, from: string, pageFiles: Map<string, string>, assetFiles: Record<string, string>): string {
  const dir = posix.dirname(from);
  const rel = (to: string) => posix.relative(dir === '.' ? '' : dir, to).replace(/ /g, '%20') || posix.basename(to);
  return markdown
    .replace(/\/pages\/([A-Za-z0-9_-]{8,64})(?![A-Za-z0-9_-])/g, (all, id: string) => (pageFiles.has(id) ? rel(pageFiles.get(id)!) : all))
    .replace(/\/files\/([A-Za-z0-9_-]{8,64})(?![A-Za-z0-9_-])/g, (all, id: string) => (assetFiles[id] ? rel(assetFiles[id]) : all));
}

/** What an export reads and writes pages with. */
interface PageWriting {
  deps: GitSyncDeps;
  spaceId: string;
  caller: Caller;
  paths: Map<string, string>;
  assets: Record<string, string>;
  /** the file of each reusable content (`.gitbook/includes/…`) */
  includeFiles: Record<string, string>;
}

/** A page of a revision as export prints its file, with the front matter fields it printed (undefined: no such page). */
async function printPage(w: PageWriting, revisionId: string, pageId: string, file: string) {
  let reply;
  try {
    reply = await w.deps.content.revisions.getPage(
      { revision: { spaceId: w.spaceId, revisionId, metadata: false }, pageId, path: '', format: 'markdown', evaluated: false },
      { caller: w.caller },
    );
  } catch (err) {
    if ((err as { kind?: string }).kind === 'not_found') return undefined;
    throw err;
  }
  if (!reply.page) return undefined;
  const page: PageFileFields = officialPage({ ...reply.page, pages: [] });
  const cover = page.cover?.ref?.kind === 'file' && page.cover.ref.file ? relativeLinks(`/files/${page.cover.ref.file}`, file, w.paths, w.assets) : undefined;
  const fields = { ...page, markdown: relativeIncludes(relativeLinks(page.markdown ?? '', file, w.paths, w.assets), file, w.includeFiles) };
  const coverPath = cover && !cover.startsWith('/files/') ? decodeURI(cover) : undefined;
  return { text: pageFileText(fields, coverPath), fields: frontmatterOf(fields, coverPath) };
}

/**
 * A changed page's file: what export prints for it, applied as changes to the file the repository holds
 * (the page as of the last sync is the base of a three-way merge), so lines nobody edited stay as the
 * repository spells them. A page the repository does not hold yet is written as printed.
 */
async function pageFileOf(w: PageWriting, repo: GitRepository, sync: SyncRecord | null, page: string, file: string, present?: string): Promise<string> {
  const next = (await printPage(w, '', page, file))!;
  if (!present || !sync?.revisionId || sync.files[page] !== file) return next.text;
  // the page as of the last sync, its links written with the files of then: a page linked to that moved since is an edit too
  const then: PageWriting = { ...w, paths: new Map(Object.entries(sync.files)), assets: sync.assets ?? {}, includeFiles: sync.includes ?? {} };
  const base = await printPage(then, sync.revisionId, page, file);
  if (!base) return next.text;
  return mergePageFile((await repo.readBlob(present)).toString('utf8'), base, next);
}

/** SUMMARY.md as the repository spells it, with the changes of the tree since the last sync. */
async function summaryFileOf(w: PageWriting, repo: GitRepository, sync: SyncRecord | null, next: string, present?: string): Promise<string> {
  if (!present || !sync?.revisionId) return next;
  let listed;
  try {
    listed = await w.deps.content.revisions.listPages({ spaceId: w.spaceId, revisionId: sync.revisionId, metadata: false }, { caller: w.caller });
  } catch (err) {
    if ((err as { kind?: string }).kind === 'not_found') return next;
    throw err;
  }
  const before: ExportPage[] = toExportPages(listed.pages.map(officialPage));
  const base = writeSummary(before, exportPaths(before, 'README.md', sync.files), sync.groups ?? {});
  return mergeText((await repo.readBlob(present)).toString('utf8'), base, next);
}

/** Why an export would overwrite what the space never held, unless forced. */
function unsafeExport(input: SyncInput, sync: SyncRecord | null, head: string | null): string | undefined {
  if (input.force) return undefined;
  if (sync?.lastImportFailure)
    return `The last import of this space failed (${sync.lastImportFailure.reason}): an export would write over the repository with what the space holds. Import again, or export with force.`;
  if (!sync && head) return 'The space was never imported from this repository and its branch already holds commits: import it first, or export with force to overwrite them.';
  return undefined;
}

/**
 * Exports the current revision: only the files whose page changed since the last sync are written (a
 * page whose print is unchanged keeps the repository's file, as long as the remote is still at the
 * synced commit), each as a three-way merge into the repository's file; SUMMARY.md only when the tree
 * changed, the same way. One commit on the remote head, pushed with a lease on it. A remote that moved
 * on, a space whose last import failed, or a space never imported over a branch with commits fails the
 * run unless `force`.
 */
async function runExport(deps: GitSyncDeps, input: SyncInput, ctx: RunContext) {
  const { remote, repo } = await openRemote(deps, input, ctx);
  const head = await repo.fetch(input.ref);
  const sync = await deps.syncs.get(input.spaceId);
  if (olderThanLastSync(input, sync)) return { skipped: 'older than the last sync' };
  const unsafe = unsafeExport(input, sync, head);
  if (unsafe) throw new PermanentRunFailure(unsafe);
  if (head && sync?.commit && head !== sync.commit && !input.force) {
    throw new PermanentRunFailure('The remote moved on since the last sync: import it first, or export with force to overwrite it.');
  }
  const trusted = !!head && head === sync?.commit;
  const caller = { userId: ctx.run.createdBy ?? '', isInstanceAdmin: false };
  const listed = await deps.content.revisions.listPages({ spaceId: input.spaceId, revisionId: '', metadata: false }, { caller });
  const revisionId = listed.revisionId;
  const tree = listed.pages.map(officialPage);
  const pages = toExportPages(tree);
  const paths = exportPaths(pages, 'README.md', sync?.files ?? {});
  const base = join(input.repoProjectDirectory, sync?.root ?? '');
  const present = head ? await repo.files(head, '') : new Map<string, string>();
  const assets = await newAssets(deps, { spaceId: input.spaceId, revisionId, caller, known: sync?.assets ?? {}, base, present, repo });
  const includes = await exportIncludes(deps, {
    spaceId: input.spaceId,
    revisionId,
    caller,
    contents: listed.reusableContents.map(officialReusableContent),
    known: sync?.includes ?? {},
    knownPrints: sync?.includePrints ?? {},
    trusted,
    base,
    present,
    toFile: (markdown, file) => relativeLinks(markdown, file, paths, assets.assets),
  });
  const writing: PageWriting = { deps, spaceId: input.spaceId, caller, paths, assets: assets.assets, includeFiles: includes.files };
  const wanted = new Map<string, string>();
  const prints: Record<string, string> = {};
  for (const page of flatPages(tree)) {
    ctx.signal.throwIfAborted();
    const file = paths.get(page.id);
    if (!file) continue;
    prints[page.id] = pagePrint(page, file);
    if (trusted && sync?.prints?.[page.id] === prints[page.id]) continue;
    // merged into the repository's file only while the remote is at the synced commit: over a remote that moved on (force), the space wins
    wanted.set(join(base, file), await pageFileOf(writing, repo, sync, page.id, file, trusted ? present.get(join(base, file)) : undefined));
  }
  const summary = writeSummary(pages, paths, sync?.groups ?? {});
  const summaryFile = join(base, 'SUMMARY.md');
  if (!(trusted && sync?.summaryPrint === summaryPrint(summary)))
    wanted.set(summaryFile, await summaryFileOf(writing, repo, sync, summary, trusted ? present.get(summaryFile) : undefined));
  const changes = new Map<string, string | null>(assets.changes);
  for (const [file, text] of includes.changes) {
    if (text === null) changes.set(file, null);
    else wanted.set(file, text);
  }
  for (const [file, text] of wanted) {
    const oid = await repo.writeBlob(text);
    if (present.get(file) !== oid) changes.set(file, oid);
  }
  // a page's file goes only when the page is gone from the tree (deleted, or turned into a link or group)
  const kept = new Set([...paths.values()].map((f) => join(base, f)));
  for (const file of Object.values(sync?.files ?? {})) {
    const full = join(base, file);
    if (!kept.has(full) && present.has(full)) changes.set(full, null);
  }
  // a completed export (forced, when an import had failed) leaves the repository holding the space
  const record = {
    lastImportFailure: null,
    revisionId,
    files: Object.fromEntries(paths),
    prints,
    summaryPrint: summaryPrint(summary),
    assets: assets.assets,
    includes: includes.files,
    includePrints: includes.prints,
  };
  const commit = await repo.commit(head, changes, input.commitMessage || 'No subject', deps.author);
  if (!commit) {
    await saveSync(deps, input, remote.repoName, sync, { commit: head ?? undefined, ...record }, 'export', false);
    return { commit: head, changed: false, files: 0 };
  }
  await repo.push(commit, input.ref, head, !!input.force);
  await saveSync(deps, input, remote.repoName, sync, { commit, ...record }, 'export', true);
  return { commit, changed: true, files: changes.size };
}

/** Git sync's runs; a run's credentials are removed when it ends, whatever the outcome. */
export function gitSyncRuns(deps: GitSyncDeps): ServiceRuns {
  /** content refusing what a run wrote (a page it cannot take) will refuse it again: no retry */
  const permanent = (err: unknown) => {
    const kind = (err as { kind?: string }).kind;
    return kind === 'invalid' || kind === 'not_found' || kind === 'forbidden' ? new PermanentRunFailure(`Content refused the run: ${(err as Error).message}`) : err;
  };
  const withCredentials =
    (fn: (deps: GitSyncDeps, input: SyncInput, ctx: RunContext) => Promise<Record<string, unknown>>, kind: 'import' | 'export') =>
    async (input: Record<string, unknown>, ctx: RunContext) => {
      let final = true;
      try {
        return await fn(deps, input as unknown as SyncInput, ctx);
      } catch (caught) {
        const err = permanent(caught);
        final = err instanceof PermanentRunFailure || ctx.attempt >= ctx.run.maxAttempts;
        // a space whose import failed for good is not exported over its repository unless forced
        // (a standalone import changes nothing the export writes)
        if (final && kind === 'import' && !input.standalone) {
          const reason = err instanceof PermanentRunFailure ? err.message : 'the run failed';
          await deps.syncs
            .markImportFailed(String(input.spaceId), reason)
            .catch((e) => logger.warn('git import: the failure could not be recorded', { error: (e as Error).message }));
        }
        throw err;
      } finally {
        if (final) await deps.credentials.remove(ctx.run._id);
      }
    };
  return {
    handlers: { [GIT_SYNC_RUNS.import]: withCredentials(withRunLimits(runImport), 'import'), [GIT_SYNC_RUNS.export]: withCredentials(withRunLimits(runExport), 'export') },
  };
}
