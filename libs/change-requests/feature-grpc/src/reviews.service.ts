import { ChangeRequestEvents as E } from '@bindery/change-requests/client';
import {
  assertMay,
  bodyFromInput,
  ChangeRequestRecord,
  ChangeRequestRef,
  CommentRecord,
  RequestedReviewer,
  ReviewRecord,
  ReviewStatus,
  SpaceAccess,
} from '@bindery/change-requests/domain';
import { conflict, invalid, notFound } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { newId } from '@bindery/shared/ids';
import { decodeCursor, Page, PageRequest, resolveLimit, toPage } from '@bindery/shared/pagination';
import { ChangeRequestsDeps, nowOf, SOURCE } from './deps';
import { visibleChangeRequest } from './space-access-from-content';

const STATUSES: readonly ReviewStatus[] = ['approved', 'changes-requested'];

function statusOf(status: string): ReviewStatus {
  if (!STATUSES.includes(status as ReviewStatus)) throw invalid('status must be one of approved, changes-requested.');
  return status as ReviewStatus;
}

/** The form asked for review comments' bodies: "document" (default) or "markdown". */
export function formatOf(format: string): string {
  if (format && format !== 'document' && format !== 'markdown') throw invalid('format must be one of document, markdown.');
  return format || 'document';
}

/** A review as its caller sees it: whether it is outdated, the comment posted with it (if not deleted), the caller's access to the space. */
export interface ReviewView {
  review: ReviewRecord;
  outdated: boolean;
  comment?: CommentRecord | null;
  access: SpaceAccess;
}

/** Reviews are taken while a change request is open or a draft. */
function assertReviewable(cr: Pick<ChangeRequestRecord, 'status'>): void {
  if (cr.status === 'merged') throw conflict('The change request is merged: it can no longer be reviewed.');
  if (cr.status === 'archived') throw conflict('The change request is archived: reopen it (status open) before reviewing it.');
}

/**
 * The reviews that are outdated: superseded by a later review of the same reviewer, or by a later
 * request for their review. `reviews` in the order they were submitted.
 */
export function outdatedReviews(reviews: ReviewRecord[], requests: RequestedReviewer[]): Set<string> {
  const latest = new Map<string, string>();
  for (const r of reviews) latest.set(r.reviewer, r._id);
  const requestedAt = new Map(requests.map((q) => [q.userId, q.createdAt]));
  return new Set(reviews.filter((r) => latest.get(r.reviewer) !== r._id || (requestedAt.get(r.reviewer) ?? '') > r.createdAt).map((r) => r._id));
}

/** The comments posted with these reviews (a comment deleted since is left out). */
async function commentsOf(deps: ChangeRequestsDeps, changeRequestId: string, reviews: ReviewRecord[]): Promise<Map<string, CommentRecord>> {
  const found = await Promise.all(reviews.filter((r) => r.comment).map((r) => deps.comments.get(changeRequestId, r.comment!)));
  return new Map(found.filter((c): c is CommentRecord => !!c).map((c) => [c._id, c]));
}

/**
 * Submits a review of the change request's head (review role; not on a merged or archived change
 * request). A comment given with it is posted on the change request, targeting the review, in the
 * same transaction; the review names who requested it when the reviewer had been asked.
 */
export async function submitReview(deps: ChangeRequestsDeps, caller: Caller, ref: ChangeRequestRef, submitted: { status: string; comment?: unknown }): Promise<ReviewView> {
  const { access, cr } = await visibleChangeRequest(deps, caller, ref.spaceId, ref.changeRequest);
  assertMay(access, 'review');
  assertReviewable(cr);
  const status = statusOf(submitted.status);
  const body = submitted.comment ? bodyFromInput(submitted.comment) : undefined;
  const now = nowOf(deps);
  const request = cr.requestedReviewers.find((q) => q.userId === caller.userId);
  const review: ReviewRecord = {
    _id: newId(),
    organizationId: cr.organizationId,
    spaceId: cr.spaceId,
    changeRequestId: cr._id,
    revision: cr.revision,
    reviewer: caller.userId,
    ...(request ? { requestedBy: request.requestedBy } : {}),
    status,
    createdAt: now,
    updatedAt: now,
  };
  let comment: CommentRecord | undefined;
  if (body && body.nodes.length > 0) {
    comment = {
      _id: newId(),
      organizationId: cr.organizationId,
      spaceId: cr.spaceId,
      changeRequestId: cr._id,
      postedBy: caller.userId,
      postedAt: now,
      body,
      revision: cr.revision,
      review: review._id,
      status: 'open',
      reactions: [],
      replies: 0,
      repliers: [],
    };
    review.comment = comment._id;
  }
  const scope = { organizationId: cr.organizationId, spaceId: cr.spaceId, changeRequestId: cr._id };
  await deps.transaction(async (session) => {
    // a merge or an archiving that commits meanwhile conflicts with this write, or has happened and fails it
    if (!(await deps.changeRequests.touchWritable(cr._id, now, session))) {
      assertReviewable((await deps.changeRequests.find(cr.spaceId, cr._id, session)) ?? { status: 'merged' });
      throw notFound('Change request');
    }
    if (comment)
      await deps.comments.insert(comment, [E.commentCreated.create(SOURCE, cr.spaceId, { ...scope, commentId: comment._id, actor: caller.userId }, cr.organizationId)], session);
    await deps.reviews.insert(
      review,
      [E.reviewSubmitted.create(SOURCE, cr.spaceId, { ...scope, reviewId: review._id, status, reviewer: caller.userId }, cr.organizationId)],
      session,
    );
  });
  return { review, outdated: false, comment, access };
}

/** The reviews of a change request in the order they were submitted, optionally only the outdated or current ones (readers). */
export async function listReviews(
  deps: ChangeRequestsDeps,
  caller: Caller,
  ref: ChangeRequestRef,
  onlyOutdated: boolean | undefined,
  request: PageRequest | undefined,
): Promise<Page<ReviewView>> {
  const limit = resolveLimit(request?.limit);
  const cursor = decodeCursor(request?.page || undefined);
  const { access, cr } = await visibleChangeRequest(deps, caller, ref.spaceId, ref.changeRequest);
  // a change request's reviews are few (one current per reviewer), and `outdated` depends on the later ones
  const all = await deps.reviews.all(cr._id);
  const outdated = outdatedReviews(all, cr.requestedReviewers);
  const listed = onlyOutdated === undefined ? all : all.filter((r) => outdated.has(r._id) === onlyOutdated);
  const after = cursor ? listed.filter((r) => r.createdAt > String(cursor.k ?? '') || (r.createdAt === cursor.k && r._id > cursor.id)) : listed;
  const page = toPage(
    after.slice(0, limit + 1),
    limit,
    listed.length,
    (r) => ({ k: r.createdAt, id: r._id }),
    (r) => r,
  );
  const comments = await commentsOf(deps, cr._id, page.items);
  return { ...page, items: page.items.map((r) => ({ review: r, outdated: outdated.has(r._id), comment: r.comment ? comments.get(r.comment) : undefined, access })) };
}

/** One review of a change request (readers). */
export async function getReview(deps: ChangeRequestsDeps, caller: Caller, ref: ChangeRequestRef, reviewId: string): Promise<ReviewView> {
  const { access, cr } = await visibleChangeRequest(deps, caller, ref.spaceId, ref.changeRequest);
  const review = reviewId ? await deps.reviews.get(cr._id, reviewId) : null;
  if (!review) throw notFound('Review');
  const ofReviewer = (await deps.reviews.all(cr._id)).filter((r) => r.reviewer === review.reviewer);
  const outdated = outdatedReviews(ofReviewer, cr.requestedReviewers).has(review._id);
  const comment = review.comment ? await deps.comments.get(cr._id, review.comment) : undefined;
  return { review, outdated, comment, access };
}
