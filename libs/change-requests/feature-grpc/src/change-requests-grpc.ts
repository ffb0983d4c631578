import { grpcService, GrpcRegistration } from '@bindery/platform/grpc';
import { idempotencyMark } from '@bindery/shared/ids';
import { bodyFromMessage, changeRequestsV1 as pb } from '@bindery/shared/contracts';
import * as lifecycle from './change-requests.service';
import * as edits from './content-edits.service';
import { importWebsite } from './content-import.service';
import * as reviews from './reviews.service';
import { reviewMessage } from './review-messages';
import { ChangeRequestsDeps } from './deps';

/** The change requests service: each handler maps proto ⇄ domain around its use case where the use case takes domain types. */
export function changeRequestsGrpc(deps: ChangeRequestsDeps): GrpcRegistration[] {
  return [
    grpcService(
      pb.ChangeRequestsServiceService,
      {
        createChangeRequest: (req, { caller, idempotencyKey }) =>
          deps.idempotencyKeys.once('createChangeRequest', idempotencyMark(caller.userId, idempotencyKey, req), pb.ChangeRequest, () =>
            lifecycle.createChangeRequest(deps, caller, req),
          ),
        listChangeRequests: (req, { caller }) => lifecycle.listChangeRequests(deps, caller, req),
        getChangeRequest: (req, { caller }) => lifecycle.getChangeRequest(deps, caller, req),
        updateChangeRequest: (req, { caller }) => lifecycle.updateChangeRequest(deps, caller, req),
        updateContent: (req, { caller }) => edits.updateContent(deps, caller, req),
        importWebsite: (req, { caller }) => importWebsite(deps, caller, req),
        bringUpToDate: (req, { caller }) => edits.bringUpToDate(deps, caller, req),
        merge: (req, { caller, idempotencyKey }) =>
          deps.idempotencyKeys.once('merge', idempotencyMark(caller.userId, idempotencyKey, req), pb.MergeResponse, () => edits.mergeChangeRequest(deps, caller, req)),
        listChanges: (req, { caller }) => edits.listChanges(deps, caller, req),
        submitReview: async (req, { caller }) => {
          const submitted = { status: req.status, comment: req.comment ? bodyFromMessage(req.comment) : undefined };
          return reviewMessage(await reviews.submitReview(deps, caller, req.ref!, submitted), caller, 'document');
        },
        listReviews: async (req, { caller }) => {
          const format = reviews.formatOf(req.format);
          const page = await reviews.listReviews(deps, caller, req.ref!, req.outdated, req.page);
          return { items: page.items.map((v) => reviewMessage(v, caller, format)), page: { count: page.count, nextPage: page.nextPage } };
        },
        getReview: async (req, { caller }) => {
          const format = reviews.formatOf(req.format);
          return reviewMessage(await reviews.getReview(deps, caller, req.ref!, req.reviewId), caller, format);
        },
      },
      // a site token reads the merged change request a merge revision of its spaces names (getRevisionById's mergedFrom)
      { siteReadable: ['getChangeRequest'] },
    ),
  ];
}
