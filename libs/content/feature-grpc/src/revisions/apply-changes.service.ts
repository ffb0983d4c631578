import { invalid } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { contentRevisionsV1 as pb } from '@bindery/shared/contracts';
import { newId } from '@bindery/shared/ids';
import {
  applyChanges,
  assertNotLocked,
  assertRole,
  EMPTY_TRIE_HASH,
  ContentChange,
  FileNode,
  ImportedReusableContent,
  InsertFileItem,
  parseChanges,
  RevisionDraft,
} from '@bindery/content/domain';
import type { RevisionRecord } from '@bindery/content/data-access';
import { ContentDeps, nowOf } from '../content-deps';
import { visibleSpace } from '../space-visibility';
import { storedRevision } from './revision-reads';
import { fileMessage } from './revision-messages';
import { siblingSlugsCache } from './sibling-slugs-cache';
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
  const first = await editableSpace(deps, caller, req.spaceId, req.updateCurrent);
  const files = await ingestAll(deps, first.space._id, changes);
  const applied = await applyIngestedChanges(deps, caller, first, changes, files, { ...req, revisionType: type });
  return {
    revisionId: applied.revision._id,
    parentRevisionId: applied.parentRevisionId,
    changes: applied.outcome.changes.map((c) => ({ object: c.object, ref: c.ref || undefined, pageId: c.page })),
    insertedFiles: applied.outcome.insertedFiles.map((f) => fileMessage(f, deps.files.downloadUrlOf(applied.space._id, f))),
  };
}

type VisibleSpace = Awaited<ReturnType<typeof visibleSpace>>;

/** The space a batch edits: editors and up; a live edit (`updateCurrent`) of a locked space is refused. */
export async function editableSpace(deps: ContentDeps, caller: Caller, spaceId: string, updateCurrent: boolean): Promise<VisibleSpace> {
  const first = await visibleSpace(deps, caller, spaceId);
  assertRole(first.role, 'edit', 'space', 'Editing');
  if (updateCurrent) assertNotLocked(first.space.editMode, 'live edit');
  return first;
}

export interface BatchOptions {
  baseRevisionId: string;
  updateCurrent: boolean;
  revisionType: string;
  mergedFrom?: string;
  /** the revision's idempotency key (unique per space): a second write with it fails with a duplicate key */
  revisionKey?: string;
  /** ids for the pages the batch inserts, in order (generated when absent or used up) */
  pageIds?: string[];
  /** the revision a revert_page without its own `revision` goes back to; absent: refused */
  revertRevisionId?: string;
  /** an import's stored files by the paths that name them */
  importedFiles?: ReadonlyMap<string, string>;
  /** the commit an import's revision records */
  git?: RevisionRecord['git'];
  /** an import's reusable contents (they replace the base's) */
  reusableContents?: readonly ImportedReusableContent[];
}

/**
 * Writes changes whose files are already stored (`files`) as a new revision, recomputed on a newer
 * current revision when another writer won (live edits without an explicit base). On failure the
 * stored files are discarded.
 */
export async function applyIngestedChanges(
  deps: ContentDeps,
  caller: Caller,
  first: VisibleSpace,
  changes: ContentChange[],
  files: Map<InsertFileItem, FileNode>,
  options: BatchOptions,
) {
  try {
    for (let attempt = 1; ; attempt += 1) {
      const { space } = attempt === 1 ? first : await visibleSpace(deps, caller, first.space._id);
      const base = await storedRevision(deps, space, options.baseRevisionId || space.revision);
      const draft = new RevisionDraft(base, { baseSiblings: (parent) => siblingSlugsCache.get(space._id, base.pagesRoot, parent) });
      const now = nowOf(deps);
      const pageIds = [...(options.pageIds ?? [])];
      const revertSource = async (id: string | undefined) => {
        const revisionId = id ?? options.revertRevisionId;
        if (!revisionId) return undefined;
        if (!(await deps.revisions.get(space._id, revisionId))) return undefined;
        return { id: revisionId, revision: await storedRevision(deps, space, revisionId) };
      };
      const outcome = await applyChanges(draft, changes, {
        now,
        newId: () => pageIds.shift() ?? newId(),
        ingest: async (item) => files.get(item)!,
        revertSource,
        ...(options.importedFiles ? { importedFiles: options.importedFiles } : {}),
        ...(options.reusableContents ? { reusableContents: options.reusableContents } : {}),
        baseReusableContents: new Set((base.record.reusableContents ?? []).map((r) => r.id)),
      });
      try {
        const revision = await writeRevision(deps, space, base, draft, {
          id: newId(),
          type: options.revisionType,
          now,
          mergedFrom: options.mergedFrom || undefined,
          updateCurrent: options.updateCurrent,
          ...(options.revisionKey ? { mergeKey: options.revisionKey } : {}),
          ...(options.git ? { git: options.git } : {}),
          ...(outcome.reusableContents ? { reusableContents: outcome.reusableContents } : {}),
        });
        for (const [parent, slugs] of draft.knownSiblings()) siblingSlugsCache.set(space._id, revision.pages ?? EMPTY_TRIE_HASH, parent, slugs);
        return { revision, parentRevisionId: base.record._id, outcome, space };
      } catch (err) {
        if (!(err instanceof StaleBaseError) || options.baseRevisionId || attempt >= ATTEMPTS) throw err;
      }
    }
  } catch (err) {
    await deps.files.discard(first.space._id, [...files.values()]);
    throw err;
  }
}
