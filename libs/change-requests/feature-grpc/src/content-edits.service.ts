import { DomainError, invalid } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { assertContentWritable, assertMay, ChangeRequestRecord, mergeBaseOf } from '@bindery/change-requests/domain';
import { changeRequestsV1 as pb } from '@bindery/shared/contracts';
import { newId } from '@bindery/shared/ids';
import { changeRequestEvent } from './change-request-events';
import { changeRequestMessage, oneMessage } from './change-request-json';
import { ChangeRequestsDeps, nowOf } from './deps';
import { visibleChangeRequest } from './space-access-from-content';

/** A content edit computed on a head that moved meanwhile is recomputed on the new head this many times. */
const ATTEMPTS = 5;
/** How long a merge claim holds when its claimant disappears. */
const MERGE_CLAIM_MS = 120_000;

const busy = () => new DomainError('conflict', 'The change request is being merged.');

/**
 * Applies content changes to the head (editors; not on a merged or archived change request):
 * content writes a new revision on the head, then the head moves to it by compare-and-set. Another
 * edit that moved the head first makes this one recompute on the new head.
 */
export async function updateContent(deps: ChangeRequestsDeps, caller: Caller, req: pb.UpdateContentRequest): Promise<pb.UpdateContentResponse> {
  const ref = req.ref!;
  for (let attempt = 1; ; attempt += 1) {
    const { access, cr } = await visibleChangeRequest(deps, caller, ref.spaceId, ref.changeRequest);
    assertMay(access, 'edit');
    assertContentWritable(cr);
    if (cr.merging && cr.merging.until > nowOf(deps)) throw busy();
    const r = await deps.content.revisions.applyChanges(
      {
        spaceId: cr.spaceId,
        baseRevisionId: cr.revision,
        changesJson: req.changesJson,
        updateCurrent: false,
        revisionType: 'edits',
        mergedFrom: '',
        revertRevisionId: mergeBaseOf(cr),
      },
      { caller },
    );
    const set: Partial<ChangeRequestRecord> = { revision: r.revisionId, updatedAt: nowOf(deps) };
    const moved = await deps.changeRequests.moveHead(cr._id, cr.revision, set, caller.userId, [changeRequestEvent('updated', { ...cr, ...set }, ['revision'], caller.userId)]);
    if (moved) return { changeRequest: await oneMessage(deps, moved, access.revision), changes: r.changes, insertedFiles: r.insertedFiles };
    if (attempt >= ATTEMPTS) throw new DomainError('conflict', 'The change request kept changing while this edit was applied; apply it again.');
  }
}

/** Brings the head up to date with the space's current revision (editors): a three-way merge into the head. */
export async function bringUpToDate(deps: ChangeRequestsDeps, caller: Caller, req: pb.ChangeRequestRef): Promise<pb.MergeResponse> {
  const { access, cr } = await visibleChangeRequest(deps, caller, req.spaceId, req.changeRequest);
  assertMay(access, 'edit');
  assertContentWritable(cr);
  if (cr.merging && cr.merging.until > nowOf(deps)) throw busy();
  const base = mergeBaseOf(cr);
  if (base === access.revision) return { result: 'update', revision: cr.revision, conflicts: [] };
  const r = await deps.content.revisions.mergeRevisions(
    { spaceId: cr.spaceId, baseRevisionId: base, headRevisionId: cr.revision, mode: 'update', mergedFrom: '', idempotencyKey: '' },
    { caller },
  );
  if (r.result === 'conflicts') return { result: 'conflicts', revision: cr.revision, conflicts: r.conflicts };
  const set: Partial<ChangeRequestRecord> = { revision: r.revisionId, revisionMergedAncestor: r.spaceRevisionId, updatedAt: nowOf(deps) };
  const moved = await deps.changeRequests.moveHead(cr._id, cr.revision, set, caller.userId, [
    changeRequestEvent('updated', { ...cr, ...set }, ['revision', 'revisionMergedAncestor'], caller.userId),
  ]);
  if (!moved) throw new DomainError('conflict', 'The change request changed while it was brought up to date; try again.');
  return { result: 'update', revision: r.revisionId, conflicts: [] };
}

/**
 * Merges the change request into the space (review role; not on a locked space). The merge is
 * claimed first, so one merge of a change request runs at a time; content merges the head into the
 * space's current revision and moves the space's pointer by compare-and-set (an idempotency key
 * makes a repeated merge of the same head answer the same revision); then the change request is
 * marked merged by its claimant. Overlapping edits answer `conflicts` and change nothing. Merging a
 * merged change request is a conflict (a retry with the client's Idempotency-Key is answered before
 * this runs, from the service's idempotency keys).
 */
export async function mergeChangeRequest(deps: ChangeRequestsDeps, caller: Caller, req: pb.ChangeRequestRef): Promise<pb.MergeResponse> {
  const { access, cr } = await visibleChangeRequest(deps, caller, req.spaceId, req.changeRequest);
  assertMay(access, 'merge');
  assertContentWritable(cr);
  const token = newId();
  const now = nowOf(deps);
  const claimed = await deps.changeRequests.claimMerge(cr._id, token, now, new Date(deps.clock() + MERGE_CLAIM_MS).toISOString());
  if (!claimed) {
    const again = await deps.changeRequests.find(cr.spaceId, cr._id);
    if (again) assertContentWritable(again);
    throw busy();
  }
  try {
    const r = await deps.content.revisions.mergeRevisions(
      {
        spaceId: cr.spaceId,
        baseRevisionId: mergeBaseOf(claimed),
        headRevisionId: claimed.revision,
        mode: 'merge',
        mergedFrom: cr._id,
        idempotencyKey: `${cr._id}:${claimed.revision}`,
      },
      { caller },
    );
    if (r.result === 'conflicts') {
      await deps.changeRequests.releaseMerge(cr._id, token);
      return { result: 'conflicts', revision: r.revisionId, conflicts: r.conflicts };
    }
    const at = nowOf(deps);
    const set: Partial<ChangeRequestRecord> = {
      status: 'merged',
      revisionMerged: r.revisionId,
      mergedBy: caller.userId,
      mergedAt: at,
      updatedAt: at,
    };
    const done = await deps.changeRequests.finishMerge(cr._id, token, set, [changeRequestEvent('merged', { ...claimed, ...set }, ['status'], caller.userId)]);
    if (!done) {
      // the claim expired and another merge of the same head finished it: the same revision (idempotency key)
      const again = await deps.changeRequests.find(cr.spaceId, cr._id);
      if (again?.status !== 'merged' || again.revisionMerged !== r.revisionId)
        throw new DomainError('conflict', 'The merge took too long and was taken over; check the change request.');
    }
    return { result: 'merge', revision: r.revisionId, conflicts: [] };
  } catch (err) {
    await deps.changeRequests.releaseMerge(cr._id, token).catch(() => undefined);
    throw err;
  }
}

const MAX_CHANGES = 1000;

/** What the change request changes, relative to its merge base (readers). */
export async function listChanges(deps: ChangeRequestsDeps, caller: Caller, req: pb.ChangesRequest): Promise<pb.ChangesResponse> {
  const ref = req.ref!;
  const { access, cr } = await visibleChangeRequest(deps, caller, ref.spaceId, ref.changeRequest);
  const limit = req.limit || 10;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_CHANGES) throw invalid(`limit must be an integer from 1 to ${MAX_CHANGES}.`);
  const r = await deps.content.revisions.diffRevisions({ spaceId: cr.spaceId, fromRevisionId: mergeBaseOf(cr), toRevisionId: cr.revision, limit }, { caller });
  return {
    changes: r.changes,
    more: r.more,
    mergedFrom: cr.status === 'merged' ? changeRequestMessage(cr, 0, access.revision) : undefined,
  };
}
