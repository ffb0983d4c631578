import type { Caller } from '@bindery/platform/grpc';
import { changeRequestsV1 as pb } from '@bindery/shared/contracts';
import { commentMessage } from './comments/comment-json';
import type { ReviewView } from './reviews.service';

/** The Review message of a review as `caller` sees it, its comment's body in `format`. */
export function reviewMessage(v: ReviewView, caller: Caller, format: string): pb.Review {
  const r = v.review;
  return {
    id: r._id,
    changeRequest: r.changeRequestId,
    revision: r.revision,
    reviewer: r.reviewer,
    requestedBy: r.requestedBy,
    status: r.status,
    outdated: v.outdated,
    comment: v.comment ? commentMessage(v.comment, caller, v.access, format) : undefined,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}
