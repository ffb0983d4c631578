import { stringify as stringifyYaml } from 'yaml';
import { GitSyncEvents } from '@bindery/git-sync/client';
import { ExportPage, exportPaths, parseRemote, readGitbookConfig, SyncRecord, TreeEntry, treeOfRepository, writeSummary } from '@bindery/git-sync/domain';
import { PermanentRunFailure, RunContext } from '@bindery/platform/runs';
import type { ServiceRuns } from '@bindery/platform/service-runtime';
import { GitRepository } from './git-repository';
import { GIT_SYNC_RUNS, GitSyncDeps } from './git-sync.service';
import { withRunLimits } from './run-limits';

interface SyncInput {
  spaceId: string;
  organizationId: string;
  url: string;
  ref: string;
  repoCacheId?: string;
  repoProjectDirectory: string;
  timestamp?: string;
  force?: boolean;
  standalone?: boolean;
  commitMessage?: string;
  provider?: string;
  treeUrl?: string;
}

interface PageJson {
  id: string;
  type: 'document' | 'group' | 'link';
  title: string;
  slug: string;
  pages?: PageJson[];
}

const join = (...parts: string[]) => parts.filter(Boolean).join('/');

async function openRemote(deps: GitSyncDeps, input: SyncInput, ctx: RunContext) {
  const authorization = await deps.credentials.get(ctx.run._id);
  const remote = { ...parseRemote(input.url), ...(authorization ? { authorization } : {}) };
  try {
    return { remote, repo: await GitRepository.open(remote, input.repoCacheId, { cacheDir: deps.cacheDir, timeoutMs: deps.timeoutMs }) };
  } catch (err) {
    const e = err as Error & { code?: string };
    if (e.name === 'OutboundAddressRefusedError') throw new PermanentRunFailure('The remote is refused: its address is not public.');
    if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN' || e.code === 'ENODATA') throw new PermanentRunFailure('The remote is refused: its host did not resolve.');
    throw err;
  }
}

function olderThanLastSync(input: SyncInput, sync: SyncRecord | null): boolean {
  return !input.force && !!input.timestamp && !!sync?.lastTimestamp && Date.parse(input.timestamp) < Date.parse(sync.lastTimestamp);
}

async function saveSync(deps: GitSyncDeps, input: SyncInput, repoName: string, prior: SyncRecord | null, set: Partial<SyncRecord>, direction: string, changed: boolean) {
  const record: SyncRecord = {
    ...(prior ?? { files: {} }),
    _id: input.spaceId,
    organizationId: input.organizationId,
    url: input.url,
    repoName,
    ref: input.ref,
    ...(input.provider ? { provider: input.provider } : {}),
    ...(input.treeUrl ? { treeUrl: input.treeUrl } : {}),
    ...(input.timestamp ? { lastTimestamp: input.timestamp } : {}),
    ...set,
    updatedAt: new Date().toISOString(),
  };
  const event = GitSyncEvents.syncCompleted.create('git-sync', input.spaceId, {
    spaceId: input.spaceId,
    direction,
    commit: record.commit ?? '',
    revisionId: record.revisionId ?? '',
    changed,
  });
  await deps.syncs.save(record, [event]);
}

/** Imports a commit: one batch of changes per tree level (content takes 50 changes a call, and a page's parent must exist). */
async function runImport(deps: GitSyncDeps, input: SyncInput, ctx: RunContext) {
  const { remote, repo } = await openRemote(deps, input, ctx);
  const commit = await repo.fetch(input.ref);
  if (!commit) throw new PermanentRunFailure('The remote has no such ref.');
  const sync = await deps.syncs.get(input.spaceId);
  if (olderThanLastSync(input, sync)) return { skipped: 'older than the last sync', commit };
  if (sync?.commit === commit && !input.force) return { commit, changed: false };

  const all = await repo.files(commit, input.repoProjectDirectory);
  const configOid = all.get('.gitbook.yaml');
  let config;
  try {
    config = readGitbookConfig(configOid ? (await repo.readBlob(configOid)).toString('utf8') : undefined);
  } catch (err) {
    throw new PermanentRunFailure((err as Error).message);
  }
  const root = config.root;
  const inRoot = new Map([...all].filter(([f]) => !root || f.startsWith(`${root}/`)).map(([f, oid]) => [root ? f.slice(root.length + 1) : f, oid]));
  const markdown = [...inRoot.keys()].filter((f) => f.endsWith('.md') && !f.startsWith('.gitbook/'));
  const summaryOid = inRoot.get(config.summary);
  const tree = treeOfRepository(markdown, config, summaryOid ? (await repo.readBlob(summaryOid)).toString('utf8') : undefined);

  const caller = { userId: ctx.run.createdBy ?? '', isInstanceAdmin: false };
  const current = JSON.parse((await deps.content.revisions.listPages({ spaceId: input.spaceId, revisionId: '', metadata: false }, { caller })).pagesJson) as PageJson[];
  const existing = new Set<string>();
  const walk = (ps: PageJson[]) => ps.forEach((p) => (existing.add(p.id), walk(p.pages ?? [])));
  walk(current);
  const pageOfFile = new Map(Object.entries(sync?.files ?? {}).map(([page, file]) => [file, page]));

  // groups are not written by content's changes: their pages become top-level pages (a known gap)
  const flat = (es: TreeEntry[]): TreeEntry[] => es.flatMap((e) => (e.kind === 'group' ? flat(e.children) : [e]));
  const files: Record<string, string> = {};
  const groupOfEntry = new Map<TreeEntry, string>();
  for (const e of tree) if (e.kind === 'group') for (const c of flat(e.children)) groupOfEntry.set(c, e.title);
  const groups: Record<string, string> = {};
  let level: { entry: TreeEntry; parent: string | null }[] = flat(tree).map((entry) => ({ entry, parent: null }));
  const kept = new Set<string>();
  const collect = (es: TreeEntry[]) =>
    es.forEach((e) => (e.file && pageOfFile.has(e.file) && existing.has(pageOfFile.get(e.file)!) && kept.add(pageOfFile.get(e.file)!), collect(e.children)));
  collect(tree);
  let base = '';
  let revision = '';
  let deletes = current.filter((p) => !kept.has(p.id)).map((p) => ({ operation: 'delete_page', page: p.id }));
  let done = 0;
  while (level.length) {
    const next: typeof level = [];
    const changes: Record<string, unknown>[] = [...deletes];
    deletes = [];
    for (const [i, { entry, parent }] of level.entries()) {
      const text = (await repo.readBlob(inRoot.get(entry.file!)!)).toString('utf8');
      const page = pageOfFile.get(entry.file!);
      const common = { document: { markdown: text }, ...(entry.title ? { title: entry.title.slice(0, 200) } : {}), into: parent, at: i };
      if (page && kept.has(page)) changes.push({ operation: 'update_page', page, ...common });
      else changes.push({ operation: 'insert_page', ref: `f${i}`, ...common, ...(parent ? {} : { into: undefined }) });
    }
    const ids = new Map<number, string>();
    for (let i = 0; i < changes.length; i += 50) {
      ctx.signal.throwIfAborted();
      const reply = await deps.content.revisions.applyChanges(
        {
          spaceId: input.spaceId,
          baseRevisionId: base,
          changesJson: JSON.stringify(changes.slice(i, i + 50)),
          updateCurrent: !input.standalone,
          revisionType: 'update',
          mergedFrom: '',
          revertRevisionId: '',
        },
        { caller },
      );
      base = revision = reply.revisionId;
      // content answers each change with the page it touched (its JSON) and the batch-local ref of an inserted one
      for (const c of JSON.parse(reply.changesJson) as { object: string; page: string | { id: string }; ref?: string }[]) {
        if (c.ref) ids.set(Number(c.ref.slice(1)), typeof c.page === 'string' ? c.page : c.page.id);
      }
    }
    for (const [i, { entry }] of level.entries()) {
      const id = pageOfFile.get(entry.file!) && kept.has(pageOfFile.get(entry.file!)!) ? pageOfFile.get(entry.file!)! : ids.get(i)!;
      files[id] = join(root, entry.file!);
      if (groupOfEntry.has(entry)) groups[id] = groupOfEntry.get(entry)!;
      next.push(...entry.children.map((child) => ({ entry: child, parent: id })));
    }
    done += level.length;
    await ctx.progress({ done, message: 'pages written' });
    level = next;
  }
  await saveSync(
    deps,
    input,
    remote.repoName,
    sync,
    { commit, revisionId: revision, files: Object.fromEntries(Object.entries(files).map(([p, f]) => [p, root ? f.slice(root.length + 1) : f])), groups },
    'import',
    true,
  );
  return { commit, revision, pages: done, changed: true };
}

/** A page's file as GitBook writes it: front matter (the description), the title as `# H1`, the Markdown. */
function pageFile(page: { title?: string; description?: string; markdown?: string }): string {
  const head = page.description ? `---\n${stringifyYaml({ description: page.description }, { lineWidth: 0 })}---\n\n` : '';
  const body = String(page.markdown ?? '').replace(/^\n+/, '');
  return `${head}# ${page.title ?? ''}\n\n${body}`.replace(/\n*$/, '\n');
}

async function runExport(deps: GitSyncDeps, input: SyncInput, ctx: RunContext) {
  const { remote, repo } = await openRemote(deps, input, ctx);
  const head = await repo.fetch(input.ref);
  const sync = await deps.syncs.get(input.spaceId);
  if (olderThanLastSync(input, sync)) return { skipped: 'older than the last sync' };
  if (head && sync?.commit && head !== sync.commit && !input.force) {
    throw new PermanentRunFailure('The remote moved on since the last sync: import it first, or export with force to overwrite it.');
  }
  const caller = { userId: ctx.run.createdBy ?? '', isInstanceAdmin: false };
  const listed = await deps.content.revisions.listPages({ spaceId: input.spaceId, revisionId: '', metadata: false }, { caller });
  const revisionId = listed.revisionId;
  const toExport = (ps: PageJson[]): ExportPage[] => ps.map((p) => ({ id: p.id, type: p.type, title: p.title, slug: p.slug, children: toExport(p.pages ?? []) }));
  const pages = toExport(JSON.parse(listed.pagesJson) as PageJson[]);
  const paths = exportPaths(pages, 'README.md', sync?.files ?? {});
  const dir = input.repoProjectDirectory;
  const wanted = new Map<string, string>();
  for (const [pageId, file] of paths) {
    ctx.signal.throwIfAborted();
    const reply = await deps.content.revisions.getPage(
      { revision: { spaceId: input.spaceId, revisionId, metadata: false }, pageId, path: '', format: 'markdown', evaluated: false },
      { caller },
    );
    wanted.set(join(dir, file), pageFile(JSON.parse(reply.pageJson) as { title?: string; description?: string; markdown?: string }));
  }
  wanted.set(join(dir, 'SUMMARY.md'), writeSummary(pages, paths, sync?.groups ?? {}));
  const present = head ? await repo.files(head, '') : new Map<string, string>();
  const changes = new Map<string, string | null>();
  for (const [file, text] of wanted) {
    const oid = await repo.writeBlob(text);
    if (present.get(file) !== oid) changes.set(file, oid);
  }
  for (const file of Object.values(sync?.files ?? {})) {
    const full = join(dir, file);
    if (!wanted.has(full) && present.has(full)) changes.set(full, null);
  }
  const commit = await repo.commit(head, changes, input.commitMessage || 'No subject', deps.author);
  if (!commit) {
    await saveSync(deps, input, remote.repoName, sync, { commit: head ?? undefined, revisionId, files: Object.fromEntries(paths) }, 'export', false);
    return { commit: head, changed: false, files: 0 };
  }
  await repo.push(commit, input.ref, head, !!input.force);
  await saveSync(deps, input, remote.repoName, sync, { commit, revisionId, files: Object.fromEntries(paths) }, 'export', true);
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
