import { conflict, invalid } from '@bindery/platform/errors';
import { Caller, incomingDeadline } from '@bindery/platform/grpc';
import { isDuplicateKey } from '@bindery/platform/mongo';
import { contentRevisionsV1 as pb } from '@bindery/shared/contracts';
import { newId } from '@bindery/shared/ids';
import { assertCanMerge, assertRole, ChangedKeys, MergeConflict, mergeChanged, mergeReusableContents, ROOT_KEY, SpaceRecord, trieDiff, trieEntries } from '@bindery/content/domain';
import type { RevisionRecord } from '@bindery/content/data-access';
import type { RoleOrGuest } from '@bindery/shared/roles';
import { ContentDeps, nowOf } from '../content-deps';
import { visibleSpace } from '../space-visibility';
import { storedRevision } from './revision-reads';
import type { StoredRevision } from './stored-revision';
import { insertRevision, RevisionContent, StaleBaseError, storeChanges } from './write-revision';
import { SpaceMergeQueue } from './space-merge-queue';

/** A merge computed on a current revision that moved meanwhile is recomputed on the new one this many times. */
const ATTEMPTS = 10;

type Mode = 'merge' | 'update';

/**
 * This process's merges into one space, one at a time and in arrival order; a merge waits at most
 * until its deadline less a reserve (time to merge and answer), then answers 429 (docs/merge.md).
 */
const mergeQueue = new SpaceMergeQueue({ reserveMs: { min: 250, max: 1500 }, maxWaitMs: 8000 });

function authorize(mode: Mode, space: SpaceRecord, role: RoleOrGuest): void {
  if (mode === 'update') return assertRole(role, 'edit', 'space', 'Updating a change request');
  assertCanMerge(role, space.editMode);
}

const mergedReply = (revision: RevisionRecord): pb.MergeRevisionsReply => ({
  result: 'merge',
  revisionId: revision._id,
  spaceRevisionId: revision.parents[0] ?? '',
  conflicts: [],
});

const sameContent = (a: StoredRevision, b: StoredRevision) => a.pagesRoot === b.pagesRoot && a.filesRoot === b.filesRoot;

/** What changed between two page maps, as merge-changed and a revision record count it. */
async function changedBetween(from: StoredRevision, to: StoredRevision) {
  const diff = await trieDiff(from.nodes, from.pagesRoot, to.pagesRoot);
  const ids = [...diff].filter(([key]) => key !== ROOT_KEY).sort(([a], [b]) => (a < b ? -1 : 1));
  return { changedPages: ids.filter(([, c]) => c.after).map(([id]) => id), deletedPages: ids.filter(([, c]) => !c.after).map(([id]) => id) };
}

/** The keys that differ between the base and either side, from the tries (identical subtrees are skipped). */
async function changedKeys(base: StoredRevision, ours: StoredRevision, theirs: StoredRevision): Promise<ChangedKeys> {
  const [po, pt, fo, ft] = await Promise.all([
    trieDiff(base.nodes, base.pagesRoot, ours.pagesRoot),
    trieDiff(base.nodes, base.pagesRoot, theirs.pagesRoot),
    trieDiff(base.nodes, base.filesRoot, ours.filesRoot),
    trieDiff(base.nodes, base.filesRoot, theirs.filesRoot),
  ]);
  const pages = new Set([...po.keys(), ...pt.keys()]);
  const root = pages.delete(ROOT_KEY);
  return { pages, root, files: new Set([...fo.keys(), ...ft.keys()]) };
}

/** Every key of the three revisions: the whole-revision merge, for inputs the scoped one cannot take. */
async function everyKey(revisions: StoredRevision[]): Promise<ChangedKeys> {
  const maps = await Promise.all(revisions.flatMap((r) => [trieEntries(r.nodes, r.pagesRoot), trieEntries(r.nodes, r.filesRoot)]));
  const pages = new Set(maps.filter((_, i) => i % 2 === 0).flatMap((m) => [...m.keys()]));
  pages.delete(ROOT_KEY);
  return { pages, root: true, files: new Set(maps.filter((_, i) => i % 2 === 1).flatMap((m) => [...m.keys()])) };
}

/**
 * The content of `ours` with what `theirs` changed since `base`, stored (records and trie nodes) but not
 * yet published, or the conflicts. When one side is the base's content, the other side's maps are the
 * answer as they are; otherwise only what the changes reach is read (mergeChanged).
 */
async function threeWay(
  deps: ContentDeps,
  space: SpaceRecord,
  revisions: { base: StoredRevision; ours: StoredRevision; theirs: StoredRevision },
  now: string,
): Promise<{ conflicts: MergeConflict[] } | { content: RevisionContent }> {
  const { base, ours, theirs } = revisions;
  if (sameContent(theirs, base)) return { content: { pages: ours.pagesRoot, files: ours.filesRoot, changedPages: [], deletedPages: [] } };
  if (sameContent(ours, base)) return { content: { pages: theirs.pagesRoot, files: theirs.filesRoot, ...(await changedBetween(ours, theirs)) } };
  const delta =
    (await mergeChanged(base, ours, theirs, await changedKeys(base, ours, theirs), now)) ?? (await mergeChanged(base, ours, theirs, await everyKey([base, ours, theirs]), now));
  if (!delta) throw new Error('the whole-revision merge refused its inputs');
  if (delta.conflicts.length) return { conflicts: delta.conflicts };
  const roots = await storeChanges(deps, space, ours, delta);
  return { content: { ...roots, changedPages: delta.changedPages, deletedPages: delta.deletedPages } };
}

/**
 * A change request's three-way merge (docs/merge.md). "merge": the head into the space's current
 * revision, as a revision of type merge with parents [current, head] that becomes current by
 * compare-and-set (recomputed on the newer revision when another writer won); reviewers and up, not in
 * a locked space; with an idempotency key, once. "update": the current revision into the head, as a
 * revision of type update with parents [head, current]; editors and up; the space does not move.
 * Conflicts write nothing. Side effects: the revision's records, `content.revision.created`.
 */
export async function mergeRevisions(deps: ContentDeps, caller: Caller, req: pb.MergeRevisionsRequest): Promise<pb.MergeRevisionsReply> {
  if (req.mode !== 'merge' && req.mode !== 'update') throw invalid('mode must be "merge" or "update".');
  if (!req.baseRevisionId || !req.headRevisionId) throw invalid('base_revision_id and head_revision_id are required.');
  const mode: Mode = req.mode;
  const key = mode === 'merge' ? req.idempotencyKey : '';
  const first = await visibleSpace(deps, caller, req.spaceId);
  authorize(mode, first.space, first.role);
  const [base, head] = await Promise.all([storedRevision(deps, first.space, req.baseRevisionId), storedRevision(deps, first.space, req.headRevisionId)]);
  // only a merge moves the space: merges of one space take turns (a merge that waited reads the space
  // again: the one before it moved it); updates write beside it
  if (mode === 'update') return mergeAttempts(deps, caller, req, mode, key, first, base, head);
  return mergeQueue.run(first.space._id, incomingDeadline(), (waited) => mergeAttempts(deps, caller, req, mode, key, waited ? undefined : first, base, head));
}

/** The merge on the space's current revision, recomputed on the newer one when another writer won (ATTEMPTS times). */
async function mergeAttempts(
  deps: ContentDeps,
  caller: Caller,
  req: pb.MergeRevisionsRequest,
  mode: Mode,
  key: string,
  first: Awaited<ReturnType<typeof visibleSpace>> | undefined,
  base: StoredRevision,
  head: StoredRevision,
): Promise<pb.MergeRevisionsReply> {
  for (let attempt = 1; ; attempt += 1) {
    const { space, role } = attempt === 1 && first ? first : await visibleSpace(deps, caller, req.spaceId);
    if (attempt > 1 || !first) authorize(mode, space, role);
    if (key) {
      const done = await deps.revisions.findByMergeKey(space._id, key);
      if (done) return mergedReply(done);
    }
    const current = await storedRevision(deps, space, space.revision);
    if (mode === 'update' && current.record._id === base.record._id) return { result: 'update', revisionId: head.record._id, spaceRevisionId: current.record._id, conflicts: [] };
    const [ours, theirs] = mode === 'merge' ? [current, head] : [head, current];
    const now = nowOf(deps);
    const outcome = await threeWay(deps, space, { base, ours, theirs }, now);
    if ('conflicts' in outcome) return { result: 'conflicts', revisionId: ours.record._id, spaceRevisionId: current.record._id, conflicts: outcome.conflicts };
    try {
      const revision = await insertRevision(deps, space, ours, outcome.content, {
        id: newId(),
        type: mode,
        now,
        parents: [ours.record._id, theirs.record._id],
        updateCurrent: mode === 'merge',
        ...(mode === 'merge' && req.mergedFrom ? { mergedFrom: req.mergedFrom } : {}),
        ...(key ? { mergeKey: key } : {}),
        reusableContents: mergeReusableContents(base.record.reusableContents, ours.record.reusableContents, theirs.record.reusableContents),
      });
      return { result: mode, revisionId: revision._id, spaceRevisionId: current.record._id, conflicts: [] };
    } catch (err) {
      if (key && isDuplicateKey(err)) {
        const done = await deps.revisions.findByMergeKey(space._id, key);
        if (done) return mergedReply(done);
      }
      if (!(err instanceof StaleBaseError)) throw err;
      if (attempt >= ATTEMPTS) throw conflict('The space kept changing while the change request was being merged; merge it again.');
    }
  }
}
