import { grpcService, GrpcRegistration } from '@bindery/platform/grpc';
import { idempotencyMark } from '@bindery/shared/ids';
import { changeRequestsV1 as pb } from '@bindery/shared/contracts';
import * as lifecycle from './change-requests.service';
import * as edits from './content-edits.service';
import { importWebsite } from './content-import.service';
import * as reviews from './reviews.service';
import { ChangeRequestsDeps } from './deps';

export function changeRequestsGrpc(deps: ChangeRequestsDeps): GrpcRegistration[] {
  return [
    grpcService(pb.ChangeRequestsServiceService, {
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
      submitReview: (req, { caller }) => reviews.submitReview(deps, caller, req),
      listReviews: (req, { caller }) => reviews.listReviews(deps, caller, req),
      getReview: (req, { caller }) => reviews.getReview(deps, caller, req),
    }),
  ];
}
