import type { Urls } from '@bindery/gateway/identity-routes';
import { changeRequestsV1 as pb } from '@bindery/shared/contracts';
import { commentJson, usersOfComment } from './comment-representations';
import type { UserJson } from '@bindery/gateway/change-request-json';
import { changeRequestLocation } from '@bindery/gateway/change-request-json';

/** The official ChangeRequestReview. */
export function reviewJson(r: pb.Review, spaceId: string, user: (id: string) => UserJson, urls: Urls) {
  return {
    object: 'change-request-review',
    id: r.id,
    revision: r.revision,
    reviewer: user(r.reviewer),
    ...(r.requestedBy ? { requestedBy: user(r.requestedBy) } : {}),
    status: r.status,
    outdated: r.outdated,
    ...(r.comment ? { comment: commentJson(r.comment, user, urls) } : {}),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    urls: { location: `${changeRequestLocation(urls, spaceId, r.changeRequest)}/reviews/${encodeURIComponent(r.id)}` },
  };
}

/** The official ChangeRequestRequestedReviewer of a user. */
export function requestedReviewerJson(q: pb.RequestedReviewer, user: (id: string) => UserJson) {
  return { object: 'change-request-requested-reviewer', kind: 'user', user: user(q.user), requestedBy: user(q.requestedBy), revision: q.revision, createdAt: q.createdAt };
}

/** The users a review names. */
export const usersOfReview = (r: pb.Review) => [r.reviewer, r.requestedBy, ...(r.comment ? usersOfComment(r.comment) : [])];
export const usersOfRequestedReviewer = (q: pb.RequestedReviewer) => [q.user, q.requestedBy];
