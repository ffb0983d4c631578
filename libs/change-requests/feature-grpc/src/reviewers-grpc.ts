import type { RequestedReviewer } from '@bindery/change-requests/domain';
import { grpcService, GrpcRegistration } from '@bindery/platform/grpc';
import { changeRequestsV1 as pb } from '@bindery/shared/contracts';
import type { ChangeRequestsDeps } from './deps';
import { listRequestedReviewers, removeRequestedReviewer, requestReviewers } from './reviewers.service';

const reviewerMessage = (q: RequestedReviewer): pb.RequestedReviewer => ({ user: q.userId, requestedBy: q.requestedBy, revision: q.revision, createdAt: q.createdAt });

/** The reviewers service: proto ⇄ domain, one use case each. */
export function reviewersGrpc(deps: ChangeRequestsDeps): GrpcRegistration {
  return grpcService(pb.ReviewersServiceService, {
    listRequestedReviewers: async (req, { caller }) => {
      const page = await listRequestedReviewers(deps, caller, req.changeRequest!, req.page);
      return { items: page.items.map(reviewerMessage), page: { count: page.count, nextPage: page.nextPage } };
    },
    requestReviewers: async (req, { caller }) => ({ users: (await requestReviewers(deps, caller, req.changeRequest!, req.users, req.subject)).map(reviewerMessage) }),
    removeRequestedReviewer: async (req, { caller }) => ({ deleted: await removeRequestedReviewer(deps, caller, req.changeRequest!, req.user) }),
  });
}
