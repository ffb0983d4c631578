import { ChangeRequestEvents as E } from '@bindery/change-requests/client';
import { assertEditable, assertMay, ChangeRequestRecord, ChangeRequestRef, checkSubject, MAX_REQUESTED_REVIEWERS, RequestedReviewer } from '@bindery/change-requests/domain';
import { invalid, notFound } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { decodeCursor, Page, PageRequest, resolveLimit, toPage } from '@bindery/shared/pagination';
import { hasAtLeast, Role } from '@bindery/shared/roles';
import { changeRequestEvent } from './change-request-events';
import { ChangeRequestsDeps, nowOf, SOURCE } from './deps';
import { visibleChangeRequest } from './space-access-from-content';

const MAX_USER_ID = 128;

function reviewerEvent(kind: 'reviewerRequested' | 'reviewerRemoved', cr: ChangeRequestRecord, userId: string, actor: string) {
  return E[kind].create(SOURCE, cr.spaceId, { organizationId: cr.organizationId, spaceId: cr.spaceId, changeRequestId: cr._id, userId, actor }, cr.organizationId);
}

/** The users whose review is requested, the longest waiting first (readers). */
export async function listRequestedReviewers(deps: ChangeRequestsDeps, caller: Caller, ref: ChangeRequestRef, request: PageRequest | undefined): Promise<Page<RequestedReviewer>> {
  const limit = resolveLimit(request?.limit);
  const cursor = decodeCursor(request?.page || undefined);
  const { cr } = await visibleChangeRequest(deps, caller, ref.spaceId, ref.changeRequest);
  // at most MAX_REQUESTED_REVIEWERS, held on the change request itself
  const all = [...cr.requestedReviewers].sort((a, b) => (a.createdAt === b.createdAt ? (a.userId < b.userId ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1));
  const after = cursor ? all.filter((q) => q.createdAt > String(cursor.k ?? '') || (q.createdAt === cursor.k && q.userId > cursor.id)) : all;
  return toPage(
    after.slice(0, limit + 1),
    limit,
    all.length,
    (q) => ({ k: q.createdAt, id: q.userId }),
    (q) => q,
  );
}

function usersOf(given: string[]): string[] {
  if (!given.length) throw invalid('users must name at least one user.');
  if (given.length > MAX_REQUESTED_REVIEWERS) throw invalid(`users must name at most ${MAX_REQUESTED_REVIEWERS} users.`);
  for (const u of given) if (!u || u.length > MAX_USER_ID) throw invalid('users must be user ids.');
  return [...new Set(given)];
}

/** Only members who may review the space can be asked to (content computes their role on it). */
async function assertMayReview(deps: ChangeRequestsDeps, caller: Caller, spaceId: string, users: string[]): Promise<void> {
  const { items } = await deps.content.permissions.effectiveRoles({ target: { kind: 'space', id: spaceId }, users }, { caller });
  const roles = new Map(items.map((i) => [i.userId, i.role as Role | undefined]));
  const unable = users.filter((u) => !hasAtLeast(roles.get(u) ?? null, 'review'));
  if (unable.length) throw invalid(`${unable.join(', ')} cannot review this space: a reviewer must be a member of the organization with the review role on the space.`);
}

/**
 * Asks members to review the change request (editors; not on a merged change request), optionally
 * renaming it. Asking someone again renews their request (the change request holds one per user).
 */
export async function requestReviewers(deps: ChangeRequestsDeps, caller: Caller, ref: ChangeRequestRef, asked: string[], newSubject?: string): Promise<RequestedReviewer[]> {
  const { access, cr } = await visibleChangeRequest(deps, caller, ref.spaceId, ref.changeRequest);
  assertMay(access, 'edit');
  assertEditable(cr);
  const users = usersOf(asked);
  const subject = newSubject !== undefined ? checkSubject(newSubject) : undefined;
  await assertMayReview(deps, caller, cr.spaceId, users);
  const already = new Set(cr.requestedReviewers.map((q) => q.userId));
  if (already.size + users.filter((u) => !already.has(u)).length > MAX_REQUESTED_REVIEWERS) throw tooMany();
  if (subject !== undefined && subject !== cr.subject) {
    const set: Partial<ChangeRequestRecord> = { subject, updatedAt: nowOf(deps) };
    const renamed = await deps.changeRequests.updateFields(cr._id, set, [], [changeRequestEvent('updated', { ...cr, ...set }, ['subject'], caller.userId)]);
    if (!renamed) assertEditable({ status: 'merged' });
  }
  const out: RequestedReviewer[] = [];
  for (const userId of users) {
    const entry: RequestedReviewer = { userId, requestedBy: caller.userId, revision: cr.revision, createdAt: nowOf(deps) };
    if (!(await deps.changeRequests.requestReviewer(cr._id, entry, MAX_REQUESTED_REVIEWERS, [reviewerEvent('reviewerRequested', cr, userId, caller.userId)]))) {
      const now = await deps.changeRequests.find(cr.spaceId, cr._id);
      if (!now) throw notFound('Change request');
      assertEditable(now);
      throw tooMany();
    }
    out.push(entry);
  }
  return out;
}

const tooMany = () => invalid(`A change request can have at most ${MAX_REQUESTED_REVIEWERS} requested reviewers.`);

/** No longer asks a user to review (editors; not on a merged change request); `deleted` false when they were not asked. */
export async function removeRequestedReviewer(deps: ChangeRequestsDeps, caller: Caller, ref: ChangeRequestRef, userId: string): Promise<boolean> {
  const { access, cr } = await visibleChangeRequest(deps, caller, ref.spaceId, ref.changeRequest);
  assertMay(access, 'edit');
  assertEditable(cr);
  return deps.changeRequests.removeReviewer(cr._id, userId, [reviewerEvent('reviewerRemoved', cr, userId, caller.userId)]);
}
