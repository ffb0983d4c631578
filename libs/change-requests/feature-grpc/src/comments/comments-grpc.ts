import { grpcService, GrpcRegistration } from '@bindery/platform/grpc';
import { changeRequestsV1 as pb } from '@bindery/shared/contracts';
import { ChangeRequestsDeps } from '../deps';
import * as comments from './comments.service';
import * as replies from './replies.service';

/** CommentsService: a change request's comments and their replies. */
export function commentsGrpc(deps: ChangeRequestsDeps): GrpcRegistration[] {
  return [
    grpcService(pb.CommentsServiceService, {
      listComments: (req, { caller }) => comments.listComments(deps, caller, req),
      postComment: (req, { caller }) => comments.postComment(deps, caller, req),
      getComment: (req, { caller }) => comments.getComment(deps, caller, req),
      updateComment: (req, { caller }) => comments.updateComment(deps, caller, req),
      deleteComment: (req, { caller }) => comments.deleteComment(deps, caller, req),
      listReplies: (req, { caller }) => replies.listReplies(deps, caller, req),
      postReply: (req, { caller }) => replies.postReply(deps, caller, req),
      getReply: (req, { caller }) => replies.getReply(deps, caller, req),
      updateReply: (req, { caller }) => replies.updateReply(deps, caller, req),
      deleteReply: (req, { caller }) => replies.deleteReply(deps, caller, req),
    }),
  ];
}
