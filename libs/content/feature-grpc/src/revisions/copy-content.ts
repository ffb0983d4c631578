import { contentHash, EMPTY_TRIE_HASH, FileNode, SpaceRecord, TrieNode, trieEntries, trieSet } from '@bindery/content/domain';
import type { ContentDeps } from '../content-deps';
import { storedRevision } from './revision-reads';

/**
 * Copies a space's current content to a new space id: every record (pages and documents keep their
 * ids and addresses) and every file's bytes (a file keeps its id; its record points at the copy).
 * Answers the roots of the copy's first revision. On failure nothing of the copy is left.
 */
export async function copyContent(deps: ContentDeps, space: SpaceRecord, toSpaceId: string): Promise<{ pages?: string; files?: string }> {
  const revision = await storedRevision(deps, space, space.revision);
  if (!revision.record.pages && !revision.record.files) return {};
  try {
    await deps.objects.copySpace(space._id, toSpaceId);
    const entries = await trieEntries(revision.nodes, revision.filesRoot);
    const files = await deps.objects.getMany<FileNode>(space._id, [...entries.values()]);
    const updates = new Map<string, string>();
    const records: Array<[string, 'file' | 'trie', unknown]> = [];
    for (const file of files.values()) {
      const copy: FileNode = { ...file, blobId: await deps.files.copy(space._id, file, toSpaceId) };
      const hash = contentHash(copy);
      records.push([hash, 'file', copy]);
      updates.set(file.id, hash);
    }
    const target = { nodes: (hashes: readonly string[]) => deps.objects.getMany<TrieNode>(toSpaceId, hashes) };
    const written = await trieSet(target, EMPTY_TRIE_HASH, updates);
    for (const [hash, node] of written.created) records.push([hash, 'trie', node]);
    await deps.objects.putMany(toSpaceId, records);
    return { pages: revision.record.pages, files: written.root };
  } catch (err) {
    await removeContent(deps, toSpaceId);
    throw err;
  }
}

/** Everything a space's revisions are made of: records and file bytes (purge, failed copies). */
export async function removeContent(deps: ContentDeps, spaceId: string): Promise<void> {
  await deps.objects.removeOfSpace(spaceId);
  await deps.files.removeOfSpace(spaceId);
}
