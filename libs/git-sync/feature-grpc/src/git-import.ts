import { createHash } from 'node:crypto';
import { filesOf, readGitbookConfig, slugOfFile, TreeEntry, treeOfRepository } from '@bindery/git-sync/domain';
import { PermanentRunFailure, RunContext } from '@bindery/platform/runs';
import { isDomainError } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { officialPage } from '@bindery/content/client';
import { linkUrl, type RevisionPage } from '@bindery/shared/pages';
import { logger } from '@bindery/platform/telemetry';
import { contentRevisionsV1 } from '@bindery/shared/contracts';
import { importedIncludes, includesOf } from './git-includes';
import { GitRepository } from './git-repository';
import { GitSyncDeps } from './git-sync.service';
import { flatPages, olderThanLastSync, openRemote, pagePrints, saveSync, SyncInput } from './git-sync-common';
import { importRedirects } from './import-redirects';

const ASSETS = '.gitbook/assets/';
/** Files a page shows or offers for download, imported from anywhere in the root when a page names them. */
const MEDIA = /\.(png|jpe?g|gif|svg|webp|avif|bmp|ico|mp4|webm|mov|mp3|wav|pdf|zip)$/i;

/** The file names (last path segment, decoded) that Markdown and HTML sources and links in the texts point at. */
function mediaNamedBy(texts: string[]): Set<string> {
  const names = new Set<string>();
  const add = (target: string) => {
    const path = target.split(/[?#]/)[0];
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (!name) return;
    names.add(name);
    try {
      names.add(decodeURIComponent(name));
    } catch {
      // kept as written
    }
  };
  for (const text of texts) {
    for (const m of text.matchAll(/\]\(\s*<([^>]+)>|\]\(\s*([^)\s]+)/g)) add(m[1] ?? m[2]);
    for (const m of text.matchAll(/\b(?:src|href|srcset|data-card-cover|data-card-cover-dark)="([^"]+)"/g)) for (const part of m[1].split(',')) add(part.trim().split(/\s+/)[0]);
    for (const m of text.matchAll(/\{%\s*(?:file|embed)\s+(?:src|url)="([^"]+)"/g)) add(m[1]);
  }
  return names;
}
/** Content sniffs binary types from the bytes; only a text type (which bytes cannot tell) needs the name's word. */
const TEXT_TYPES: Record<string, string> = {
  svg: 'image/svg+xml',
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
};
const typeOf = (name: string) => TEXT_TYPES[name.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';

/** An entry of content's ImportTree. */
interface ImportEntry {
  source: string;
  type?: 'group' | 'link';
  href?: string;
  slug?: string;
  hidden?: boolean;
  page?: string;
  id?: string;
  title?: string;
  markdown?: string;
  children: ImportEntry[];
}

/** A new page's id, the same on every attempt of a run (a retried import names the same pages). */
const idFor = (runId: string, source: string) => createHash('sha256').update(`${runId}\0${source}`).digest('base64url').slice(0, 20);

/** A file of the repository not imported, and why (the run's `skippedFiles`). */
export interface SkippedFile {
  name: string;
  paths: string[];
  reason: string;
}

/** The size of the pieces a file is sent to content in (content's blob chunk size, well under gRPC's message limit). */
const PIECE_BYTES = 255 * 1024;

/**
 * The files under `.gitbook/assets/` (and the media files elsewhere a page names), once per content (git's blob id), with every path naming it, each
 * streamed from git into content's staging (StageFile) one at a time: memory stays at a piece or two
 * whatever the file's size. A file content refuses (over its size limit) or git cannot read is skipped
 * with its reason; anything else (content unavailable, the run stopped) fails the run.
 */
async function assetsOf(deps: GitSyncDeps, repo: GitRepository, inRoot: Map<string, string>, isAsset: (file: string) => boolean, spaceId: string, caller: Caller, ctx: RunContext) {
  const byOid = new Map<string, string[]>();
  for (const [file, oid] of inRoot) if (isAsset(file)) byOid.set(oid, [...(byOid.get(oid) ?? []), file]);
  const files: { paths: string[]; name: string; contentType: string; data: Buffer; stagedId: string }[] = [];
  const skipped: SkippedFile[] = [];
  for (const [oid, paths] of byOid) {
    ctx.signal.throwIfAborted();
    const name = paths[0].slice(paths[0].lastIndexOf('/') + 1);
    const head = { head: { spaceId, name } };
    async function* chunks() {
      yield head;
      for await (const data of repo.streamBlob(oid, PIECE_BYTES)) yield { data };
    }
    try {
      const staged = await deps.uploads.stageFile(chunks(), { caller });
      files.push({ paths, name, contentType: typeOf(name), data: Buffer.alloc(0), stagedId: staged.stagedId });
    } catch (err) {
      ctx.signal.throwIfAborted();
      const reason = isDomainError(err) ? (err.kind === 'invalid' ? err.message : undefined) : /^git failed/.test((err as Error).message) ? 'git could not read it' : undefined;
      if (!reason) throw err;
      skipped.push({ name, paths, reason });
    }
  }
  return { files, skipped };
}

/**
 * Imports a commit as one revision written by content's ImportTree: the tree of SUMMARY.md (groups
 * included) and the files it leaves out, each page matched to the page it was imported from before, the
 * assets once per content; the commit is recorded on the revision. Skipped when the commit is the last
 * synced one or older than the last sync (unless `force`).
 */
export async function runImport(deps: GitSyncDeps, input: SyncInput, ctx: RunContext) {
  const started = Date.now();
  const ms: Record<string, number> = {};
  const lap = (name: string) => (ms[name] = Date.now() - started - Object.values(ms).reduce((a, b) => a + b, 0));
  const { remote, repo } = await openRemote(deps, input, ctx);
  const commit = await repo.fetch(input.ref);
  lap('fetch');
  if (!commit) throw new PermanentRunFailure('The remote has no such ref.');
  const sync = await deps.syncs.get(input.spaceId);
  if (olderThanLastSync(input, sync)) return { skipped: 'older than the last sync', commit };
  if (sync?.commit === commit && !input.force) {
    // the repository is back at what the space holds: an earlier failure no longer stands in an export's way
    if (sync.lastImportFailure && !input.standalone) await deps.syncs.clearImportFailure(input.spaceId);
    return { commit, changed: false };
  }

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
  if (!tree.length) throw new PermanentRunFailure('The repository has no Markdown page to import.');

  const texts = await repo.readBlobs(filesOf(tree).map((f) => inRoot.get(f)!));
  const caller = { userId: ctx.run.createdBy ?? '', isInstanceAdmin: false };
  const current = (await deps.content.revisions.listPages({ spaceId: input.spaceId, revisionId: '', metadata: false }, { caller })).pages.map(officialPage);
  const existing = new Set<string>();
  const walk = (ps: RevisionPage[]) => ps.forEach((p) => (existing.add(p.id), walk(p.pages ?? [])));
  walk(current);
  const pageOfFile = new Map(Object.entries(sync?.files ?? {}).map(([page, file]) => [file, page]));
  const groupOfTitle = new Map(current.filter((p) => p.type === 'group').map((p) => [p.title, p.id]));
  // link pages have no file: the one leading to the same place is the same page
  const linksOf = new Map<string, string[]>();
  for (const p of flatPages(current)) {
    const url = p.type === 'link' ? linkUrl(p) : undefined;
    if (url) linksOf.set(url, [...(linksOf.get(url) ?? []), p.id]);
  }

  let pages = 0;
  const sources = new Set<string>();
  const toEntries = (entries: TreeEntry[]): ImportEntry[] => {
    const out: ImportEntry[] = [];
    for (const e of entries) {
      ctx.signal.throwIfAborted();
      if (e.kind === 'group') {
        let source = `group:${e.title}`;
        for (let n = 2; sources.has(source); n += 1) source = `group:${e.title} (${n})`;
        sources.add(source);
        const page = groupOfTitle.get(e.title);
        groupOfTitle.delete(e.title);
        out.push({ source, type: 'group', title: e.title.slice(0, 200), ...(page ? { page } : { id: idFor(ctx.run._id, source) }), children: toEntries(e.children) });
        continue;
      }
      if (e.kind === 'link') {
        let source = `link:${e.href}`;
        for (let n = 2; sources.has(source); n += 1) source = `link:${e.href} (${n})`;
        sources.add(source);
        const page = linksOf.get(e.href!)?.shift();
        out.push({ source, type: 'link', href: e.href, title: (e.title || e.href!).slice(0, 200), ...(page ? { page } : { id: idFor(ctx.run._id, source) }), children: [] });
        continue;
      }
      const file = e.file!;
      sources.add(file);
      const slug = slugOfFile(file, config.readme);
      const known = pageOfFile.get(file);
      const text = texts.get(inRoot.get(file)!)!.toString('utf8');
      pages += 1;
      out.push({
        source: file,
        ...(known && existing.has(known) ? { page: known } : { id: idFor(ctx.run._id, file) }),
        ...(e.title ? { title: e.title.slice(0, 200) } : {}),
        ...(slug ? { slug } : {}),
        // a file SUMMARY.md does not list is kept but out of the navigation, as GitBook leaves it out
        hidden: !!e.unlisted,
        markdown: text,
        children: toEntries(e.children),
      });
    }
    return out;
  };
  const entries = toEntries(tree);
  const includes = await includesOf(repo, inRoot);
  lap('read');
  // media files beside the pages (`images/shot.png`), not only under .gitbook/assets, when a page names them
  const named = mediaNamedBy([...texts.values()].map((t) => t.toString('utf8')));
  const isAsset = (file: string) => file.startsWith(ASSETS) || (!file.startsWith('.gitbook/') && MEDIA.test(file) && named.has(file.slice(file.lastIndexOf('/') + 1)));
  const { files, skipped } = await assetsOf(deps, repo, inRoot, isAsset, input.spaceId, caller, ctx);
  lap('stage');
  await ctx.progress({ done: 0, total: pages, message: 'files read; writing the revision' });
  const message = (await repo.run(['log', '-1', '--format=%B', commit])).trim();
  const reply = await deps.content.revisions.importTree(
    {
      spaceId: input.spaceId,
      tree: entries.map((e) => contentRevisionsV1.ImportTreeEntry.fromPartial(e)),
      files,
      updateCurrent: !input.standalone,
      revisionKey: `git-import:${ctx.run._id}`,
      git: { oid: commit, message, url: remote.url, ref: input.ref },
      reusableContents: { items: includes },
    },
    { caller },
  );
  lap('write');
  const refused: SkippedFile[] = reply.skippedFiles;
  skipped.push(...refused);
  const notImported = skipped.length ? `; ${skipped.length} file(s) not imported: ${skipped.map((f) => `${f.paths[0]} (${f.reason})`).join('; ')}` : '';
  await ctx.progress({ done: pages, total: pages, message: `revision written${notImported}`.slice(0, 1000) });
  if (skipped.length) logger.warn('git import: files not imported', { run: ctx.run._id, files: skipped });
  const pageOf = reply.pages;
  const filesOfPages = Object.fromEntries(
    Object.entries(pageOf)
      .filter(([source]) => !source.startsWith('group:') && !source.startsWith('link:'))
      .map(([source, page]) => [page, source]),
  );
  const prints = await pagePrints(deps, input.spaceId, reply.revisionId, filesOfPages, caller);
  const assets: Record<string, string> = {};
  for (const [path, file] of Object.entries(reply.files)) assets[file] ??= path;
  const redirects = importRedirects(input, config.redirects, pageOf);
  if (redirects.leftOut.length) logger.info('git import: redirects left out', { run: ctx.run._id, leftOut: redirects.leftOut.length });
  const included = await importedIncludes(deps, input.spaceId, reply.revisionId, reply.reusableContents, caller);
  await saveSync(
    deps,
    input,
    remote.repoName,
    sync,
    {
      commit,
      revisionId: reply.revisionId,
      root,
      files: filesOfPages,
      prints: prints.pages,
      summaryPrint: prints.summary,
      groups: {},
      assets,
      lastImportFailure: null,
      ...included,
    },
    'import',
    true,
    redirects.redirects,
  );
  lap('record');
  const imported = files.length - refused.length;
  logger.info('git import: completed', { run: ctx.run._id, pages, files: imported, skipped: skipped.length, ms });
  return {
    commit,
    revision: reply.revisionId,
    pages,
    files: imported,
    changed: true,
    ...(skipped.length ? { skippedFiles: skipped } : {}),
    redirects: redirects.count,
    redirectsLeftOut: redirects.leftOut.slice(0, 50),
  };
}
