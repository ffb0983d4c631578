import { DomainError, invalid } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { contentRevisionsV1 as pb } from '@bindery/shared/contracts';
import { newId } from '@bindery/shared/ids';
import { applyChanges, assertRole, ContentChange, FileNode, InsertFileItem, parseChanges, RevisionDraft } from '@bindery/content/domain';
import { ContentDeps, nowOf } from '../content-deps';
import { visibleSpace } from '../spaces.service';
import { storedRevision } from './revision-reads';
import { fileJson } from './revision-json';
import { StaleBaseError, writeRevision } from './write-revision';

const REVISION_TYPES = ['edits', 'merge', 'rollback', 'update'];
/** A live edit computed on a revision that moved meanwhile is recomputed on the new one this many times. */
const ATTEMPTS = 10;

/** Files are fetched and stored once, before the changes are computed (a recomputation reuses them). */
async function ingestAll(deps: ContentDeps, spaceId: string, changes: ContentChange[]): Promise<Map<InsertFileItem, FileNode>> {
  const stored = new Map<InsertFileItem, FileNode>();
  try {
    for (const change of changes) if (change.operation === 'insert_files') for (const item of change.files) stored.set(item, await deps.files.ingest(spaceId, item));
  } catch (err) {
    await deps.files.discard(spaceId, [...stored.values()]);
    throw err;
  }
  return stored;
}

/**
 * Applies a batch of changes (0.202.0 updateChangeRequestContent) to a base revision of a space, all or
 * nothing, as a new revision. Editors and up. With `updateCurrent` (a live edit; refused on a locked
 * space) the space's current revision moves to it by compare-and-set: without an explicit base the
 * change is recomputed on the newer revision when another writer won, with one it is a 409.
 * Side effects: the new revision's records, `content.revision.created`, the stored files.
 */
export async function applyContentChanges(deps: ContentDeps, caller: Caller, req: pb.ApplyChangesRequest): Promise<pb.ApplyChangesReply> {
  const type = req.revisionType || 'edits';
  if (!REVISION_TYPES.includes(type)) throw invalid(`revision type must be one of ${REVISION_TYPES.join(', ')}.`);
  const changes = parseChanges(req.changesJson);
  const first = await visibleSpace(deps, caller, req.spaceId);
  assertRole(first.role, 'edit', 'space', 'Editing');
  if (req.updateCurrent && first.space.editMode === 'locked') throw new DomainError('precondition', 'The space is locked: its content changes only through change requests.');
  const files = await ingestAll(deps, first.space._id, changes);
  try {
    for (let attempt = 1; ; attempt += 1) {
      const { space } = attempt === 1 ? first : await visibleSpace(deps, caller, req.spaceId);
      const base = await storedRevision(deps, space, req.baseRevisionId || space.revision);
      const draft = new RevisionDraft(base);
      const now = nowOf(deps);
      const outcome = await applyChanges(draft, changes, { now, newId, ingest: async (item) => files.get(item)! });
      try {
        const revision = await writeRevision(deps, space, base, draft, { id: newId(), type, now, mergedFrom: req.mergedFrom || undefined, updateCurrent: req.updateCurrent });
        return {
          revisionId: revision._id,
          parentRevisionId: base.record._id,
          changesJson: JSON.stringify(
            outcome.changes.map((c) => (c.object === 'deleted_page' ? c : { object: c.object, ...(c.ref ? { ref: c.ref } : {}), page: { object: 'page', id: c.page } })),
          ),
          insertedFilesJson: JSON.stringify(outcome.insertedFiles.map((f) => fileJson(f, deps.files.downloadUrlOf(space._id, f)))),
        };
      } catch (err) {
        if (!(err instanceof StaleBaseError) || req.baseRevisionId || attempt >= ATTEMPTS) throw err;
      }
    }
  } catch (err) {
    await deps.files.discard(first.space._id, [...files.values()]);
    throw err;
  }
}
