import { createHash } from 'node:crypto';
import { GitSyncEvents } from '@bindery/git-sync/client';
import type { gitSyncEventsV1 } from '@bindery/shared/contracts';
import { ExportPage, exportPaths, parseRemote, SyncRecord, writeSummary } from '@bindery/git-sync/domain';
import type { Caller } from '@bindery/platform/grpc';
import { officialPage } from '@bindery/content/client';
import { linkUrl, type RevisionPage } from '@bindery/shared/pages';
import { PermanentRunFailure, RunContext } from '@bindery/platform/runs';
import { GitRepository } from './git-repository';
import { GitSyncDeps } from './git-sync.service';

/** A run's input, as the routes enqueue it (no credentials: those wait in run_credentials). */
export interface SyncInput {
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

export async function openRemote(deps: GitSyncDeps, input: SyncInput, ctx: RunContext) {
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

export function olderThanLastSync(input: SyncInput, sync: SyncRecord | null): boolean {
  return !input.force && !!input.timestamp && !!sync?.lastTimestamp && Date.parse(input.timestamp) < Date.parse(sync.lastTimestamp);
}

/** Records the sync after a run, with its completed-sync event (`redirects`: an import's, for the sites publishing the space). */
export async function saveSync(
  deps: GitSyncDeps,
  input: SyncInput,
  repoName: string,
  prior: SyncRecord | null,
  set: Partial<SyncRecord>,
  direction: string,
  changed: boolean,
  redirects?: gitSyncEventsV1.GitRedirects,
) {
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
    organizationId: input.organizationId,
    redirects,
  });
  await deps.syncs.save(record, [event]);
}

export const toExportPages = (ps: RevisionPage[]): ExportPage[] =>
  ps.flatMap((p) => {
    // computed pages have no Markdown of their own to export (content holds none)
    if (p.type === 'computed') return [];
    const href = linkUrl(p);
    return [{ id: p.id, type: p.type, title: p.title, slug: p.slug ?? '', ...(href ? { href } : {}), children: toExportPages(p.pages ?? []) }];
  });

const hash = (text: string) => createHash('sha256').update(text).digest('base64url');

/** What a page's file is made of: its document (content-addressed), title, front matter fields and place. */
export const pagePrint = (p: RevisionPage, file: string) =>
  hash(JSON.stringify([p.documentId ?? '', p.title, p.description ?? '', file, p.icon, p.emoji, p.hidden, p.noIndex, p.noRobotsIndex, p.layout, p.cover]));

/** Every page of a tree, flat. */
export const flatPages = (ps: RevisionPage[]): RevisionPage[] => ps.flatMap((p) => [p, ...flatPages(p.pages ?? [])]);

/**
 * The prints of a revision as the repository holds it: each page's (see pagePrint) and SUMMARY.md's as
 * export would write it. A later export leaves the files whose print is unchanged as the repository has
 * them, so a sync never rewrites a file nobody edited, whatever the converter normalises.
 */
export async function pagePrints(deps: GitSyncDeps, spaceId: string, revisionId: string, files: Record<string, string>, caller: Caller) {
  const listed = (await deps.content.revisions.listPages({ spaceId, revisionId, metadata: false }, { caller })).pages.map(officialPage);
  const pages = toExportPages(listed);
  const paths = exportPaths(pages, 'README.md', files);
  const prints: Record<string, string> = {};
  for (const p of flatPages(listed)) if (paths.has(p.id)) prints[p.id] = pagePrint(p, paths.get(p.id)!);
  return { pages: prints, summary: hash(writeSummary(pages, paths)) };
}

export const summaryPrint = (text: string) => hash(text);
