import { ContentClients, ContentDownloadsClient, downloadTokenOf, officialFile } from '@bindery/content/client';
import type { RevisionFile } from '@bindery/shared/pages';
import type { Caller } from '@bindery/platform/grpc';
import { GitRepository } from './git-repository';
import { join } from '@bindery/git-sync/domain';

const ASSETS = '.gitbook/assets';

/** Every file of a revision (content answers them a page at a time). */
async function filesOf(content: ContentClients, spaceId: string, revisionId: string, caller: Caller): Promise<RevisionFile[]> {
  const out: RevisionFile[] = [];
  let page = '';
  for (;;) {
    const reply = await content.revisions.listFiles({ revision: { spaceId, revisionId, metadata: false }, page: { page, limit: 1000 } }, { caller });
    out.push(...reply.files.map(officialFile));
    if (!reply.page?.nextPage) return out;
    page = reply.page.nextPage;
  }
}

async function bytesOf(downloads: ContentDownloadsClient, downloadURL: string): Promise<Buffer | undefined> {
  const token = downloadTokenOf(downloadURL);
  if (!token) return undefined;
  const chunks: Buffer[] = [];
  for await (const part of downloads.downloadFile({ token }, { deadline: new Date(Date.now() + 600_000) })) {
    if (part.data) chunks.push(Buffer.from(part.data));
  }
  return Buffer.concat(chunks);
}

/**
 * The files a space gained since its last sync, written as `.gitbook/assets/<name>` (a name already
 * taken by other bytes gets a ` (n)` suffix, as GitBook does): answers the asset path of every file
 * (known and new, relative to the root) and the blobs to add.
 */
export async function newAssets(
  deps: { content: ContentClients; downloads?: ContentDownloadsClient },
  options: { spaceId: string; revisionId: string; caller: Caller; known: Record<string, string>; base: string; present: Map<string, string>; repo: GitRepository },
) {
  const assets: Record<string, string> = { ...options.known };
  const changes = new Map<string, string>();
  if (!deps.downloads) return { assets, changes };
  const files = await filesOf(deps.content, options.spaceId, options.revisionId, options.caller);
  const taken = new Set(Object.values(assets));
  for (const file of files) {
    if (assets[file.id] || !file.downloadURL) continue;
    const bytes = await bytesOf(deps.downloads, file.downloadURL);
    if (!bytes) continue;
    const oid = await options.repo.writeBlob(bytes);
    const name = file.name.replace(/[\\/]/g, '-');
    const dot = name.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    let path = `${ASSETS}/${name}`;
    for (let n = 1; taken.has(path) || (options.present.has(join(options.base, path)) && options.present.get(join(options.base, path)) !== oid); n += 1) {
      path = `${ASSETS}/${stem} (${n})${ext}`;
    }
    taken.add(path);
    assets[file.id] = path;
    if (options.present.get(join(options.base, path)) !== oid) changes.set(join(options.base, path), oid);
  }
  return { assets, changes };
}
