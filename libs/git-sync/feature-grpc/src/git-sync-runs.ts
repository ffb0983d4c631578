import { posix } from 'node:path';
import { stringify as stringifyYaml } from 'yaml';
import { exportPaths, join, writeSummary } from '@bindery/git-sync/domain';
import { PermanentRunFailure, RunContext } from '@bindery/platform/runs';
import type { ServiceRuns } from '@bindery/platform/service-runtime';
import { newAssets } from './export-assets';
import { exportIncludes, relativeIncludes, ReusableContentJson } from './git-includes';
import { runImport } from './git-import';
import { GIT_SYNC_RUNS, GitSyncDeps } from './git-sync.service';
import { flatPages, olderThanLastSync, openRemote, PageJson, pagePrint, saveSync, summaryPrint, SyncInput, toExportPages } from './git-sync-common';
import { withRunLimits } from './run-limits';

/** A page's file as GitBook writes it: front matter (the description), the title as `# H1`, the Markdown. */
function pageFile(page: { title?: string; description?: string; markdown?: string }): string {
  const head = page.description ? `---\n${stringifyYaml({ description: page.description }, { lineWidth: 0 })}---\n\n` : '';
  const body = String(page.markdown ?? '').replace(/^\n+/, '');
  return `${head}# ${page.title ?? ''}\n\n${body}`.replace(/\n*$/, '\n');
}

/** Content's `/pages/<id>` and `/files/<id>` destinations as paths relative to the page's file. */
function relativeLinks(markdown: string, from: string, pageFiles: Map<string, string>, assetFiles: Record<string, string>): string {
  const dir = posix.dirname(from);
  const rel = (to: string) => posix.relative(dir === '.' ? '' : dir, to).replace(/ /g, '%20') || posix.basename(to);
  return markdown
    .replace(/\/pages\/([A-Za-z0-9_-]{8,64})(?![A-Za-z0-9_-])/g, (all, id: string) => (pageFiles.has(id) ? rel(pageFiles.get(id)!) : all))
    .replace(/\/files\/([A-Za-z0-9_-]{8,64})(?![A-Za-z0-9_-])/g, (all, id: string) => (assetFiles[id] ? rel(assetFiles[id]) : all));
}

/**
 * Exports the current revision: only the files whose page changed since the last sync are written (a
 * page whose print is unchanged keeps the repository's file, as long as the remote is still at the
 * synced commit), SUMMARY.md only when the tree changed; one commit on the remote head, pushed with a
 * lease on it. A remote that moved on fails the run unless `force`.
 */
async function runExport(deps: GitSyncDeps, input: SyncInput, ctx: RunContext) {
  const { remote, repo } = await openRemote(deps, input, ctx);
  const head = await repo.fetch(input.ref);
  const sync = await deps.syncs.get(input.spaceId);
  if (olderThanLastSync(input, sync)) return { skipped: 'older than the last sync' };
  if (head && sync?.commit && head !== sync.commit && !input.force) {
    throw new PermanentRunFailure('The remote moved on since the last sync: import it first, or export with force to overwrite it.');
  }
  const trusted = !!head && head === sync?.commit;
  const caller = { userId: ctx.run.createdBy ?? '', isInstanceAdmin: false };
  const listed = await deps.content.revisions.listPages({ spaceId: input.spaceId, revisionId: '', metadata: false }, { caller });
  const revisionId = listed.revisionId;
  const tree = JSON.parse(listed.pagesJson) as PageJson[];
  const pages = toExportPages(tree);
  const paths = exportPaths(pages, 'README.md', sync?.files ?? {});
  const base = join(input.repoProjectDirectory, sync?.root ?? '');
  const present = head ? await repo.files(head, '') : new Map<string, string>();
  const assets = await newAssets(deps, { spaceId: input.spaceId, revisionId, caller, known: sync?.assets ?? {}, base, present, repo });
  const includes = await exportIncludes(deps, {
    spaceId: input.spaceId,
    revisionId,
    caller,
    contents: JSON.parse(listed.reusableContentsJson || '[]') as ReusableContentJson[],
    known: sync?.includes ?? {},
    knownPrints: sync?.includePrints ?? {},
    trusted,
    base,
    present,
    toFile: (markdown, file) => relativeLinks(markdown, file, paths, assets.assets),
  });
  const wanted = new Map<string, string>();
  const prints: Record<string, string> = {};
  for (const page of flatPages(tree)) {
    ctx.signal.throwIfAborted();
    const file = paths.get(page.id);
    if (!file) continue;
    prints[page.id] = pagePrint(page, file);
    if (trusted && sync?.prints?.[page.id] === prints[page.id]) continue;
    const reply = await deps.content.revisions.getPage(
      { revision: { spaceId: input.spaceId, revisionId, metadata: false }, pageId: page.id, path: '', format: 'markdown', evaluated: false },
      { caller },
    );
    const json = JSON.parse(reply.pageJson) as { title?: string; description?: string; markdown?: string };
    const markdown = relativeIncludes(relativeLinks(json.markdown ?? '', file, paths, assets.assets), file, includes.files);
    wanted.set(join(base, file), pageFile({ ...json, markdown }));
  }
  const summary = writeSummary(pages, paths, sync?.groups ?? {});
  if (!(trusted && sync?.summaryPrint === summaryPrint(summary))) wanted.set(join(base, 'SUMMARY.md'), summary);
  const changes = new Map<string, string | null>(assets.changes);
  for (const [file, text] of includes.changes) {
    if (text === null) changes.set(file, null);
    else wanted.set(file, text);
  }
  for (const [file, text] of wanted) {
    const oid = await repo.writeBlob(text);
    if (present.get(file) !== oid) changes.set(file, oid);
  }
  const kept = new Set([...paths.values()].map((f) => join(base, f)));
  for (const file of Object.values(sync?.files ?? {})) {
    const full = join(base, file);
    if (!kept.has(full) && present.has(full)) changes.set(full, null);
  }
  const record = {
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
    (fn: (deps: GitSyncDeps, input: SyncInput, ctx: RunContext) => Promise<Record<string, unknown>>) => async (input: Record<string, unknown>, ctx: RunContext) => {
      let final = true;
      try {
        return await fn(deps, input as unknown as SyncInput, ctx);
      } catch (caught) {
        const err = permanent(caught);
        final = err instanceof PermanentRunFailure || ctx.attempt >= ctx.run.maxAttempts;
        throw err;
      } finally {
        if (final) await deps.credentials.remove(ctx.run._id);
      }
    };
  return { handlers: { [GIT_SYNC_RUNS.import]: withCredentials(withRunLimits(runImport)), [GIT_SYNC_RUNS.export]: withCredentials(withRunLimits(runExport)) } };
}
