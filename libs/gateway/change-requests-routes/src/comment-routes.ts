import { officialResponse, pageOf, RouteSpec, toList } from '@bindery/gateway/http';
import { Urls } from '@bindery/gateway/identity-routes';
import type { ChangeRequestsClients } from '@bindery/change-requests/client';
import type { IdentityClients } from '@bindery/identity/client';
import type { Caller } from '@bindery/platform/grpc';
import { bodyToMessage, changeRequestsV1 as pb } from '@bindery/shared/contracts';
import { CHANGE_REQUEST } from './change-request-schemas';
import { commentJson, replyJson, usersOfComment, usersOfReply } from './comment-representations';
import { COMMENT, COMMENTS_QUERY, FORMAT_QUERY, POST_COMMENT, POST_REPLY, REPLIES_QUERY, REPLY, UPDATE_COMMENT, UPDATE_REPLY } from './comment-schemas';
import { people } from '@bindery/gateway/change-request-json';

type Call = { caller: Caller; deadline: Date };
type Body = { body?: Parameters<typeof bodyToMessage>[0]; page?: string; node?: string; resolved?: boolean; addedReactions?: string[]; removedReactions?: string[] };

const crRef = (p: Record<string, string>): pb.ChangeRequestRef => ({ spaceId: p.spaceId, changeRequest: p.changeRequestId });
const commentRef = (p: Record<string, string>, query: Record<string, unknown> = {}): pb.CommentRef => ({
  changeRequest: crRef(p),
  commentId: p.commentId,
  format: (query.format as string) ?? '',
});
const replyRef = (p: Record<string, string>, query: Record<string, unknown> = {}): pb.ReplyRef => ({ comment: commentRef(p, query), replyId: p.commentReplyId });
const authorsOf = (a: unknown): string[] => (a === undefined ? [] : Array.isArray(a) ? (a as string[]) : [a as string]);

const BASE = '/v1/spaces/:spaceId/change-requests/:changeRequestId/comments';

/** /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments…: the discussion of a change request. */
export function commentRoutes(comments: ChangeRequestsClients['comments'], identity: IdentityClients, urls: Urls): RouteSpec[] {
  const manyComments = async (items: pb.Comment[], call: Call) => {
    const user = await people(identity.identity, items.flatMap(usersOfComment), call, urls);
    return items.map((c) => commentJson(c, user, urls));
  };
  const oneComment = async (c: pb.Comment, call: Call) => (await manyComments([c], call))[0];
  const manyReplies = async (items: pb.Reply[], p: Record<string, string>, call: Call) => {
    const user = await people(identity.identity, items.flatMap(usersOfReply), call, urls);
    return items.map((r) => replyJson(r, p.spaceId, p.changeRequestId, user, urls));
  };
  const oneReply = async (r: pb.Reply, p: Record<string, string>, call: Call) => (await manyReplies([r], p, call))[0];
  return [
    {
      method: 'get',
      path: BASE,
      operationId: 'listCommentsInChangeRequest',
      summary: 'The comments of a change request, newest first unless order=asc; by status, target page and authors (readers)',
      tags: ['change-requests'],
      params: CHANGE_REQUEST,
      query: COMMENTS_QUERY,
      success: { status: 200, description: 'A page of comments', schema: officialResponse('listCommentsInChangeRequest') },
      async handler({ caller, deadline, params, query }) {
        const r = await comments.listComments(
          {
            changeRequest: crRef(params),
            order: (query.order as string) ?? '',
            format: (query.format as string) ?? '',
            status: (query.status as string) ?? '',
            targetPage: (query.targetPage as string) ?? '',
            authors: authorsOf(query.authors),
            page: pageOf(query),
          },
          { caller, deadline },
        );
        return { body: toList(await manyComments(r.items, { caller, deadline }), r.page) };
      },
    },
    {
      method: 'post',
      path: BASE,
      operationId: 'postCommentInChangeRequest',
      summary: "Comment on the change request's head, optionally on one of its pages and a block of it (commenters; merged change requests too)",
      tags: ['change-requests'],
      params: CHANGE_REQUEST,
      query: FORMAT_QUERY,
      body: POST_COMMENT,
      success: { status: 200, description: 'The comment', schema: officialResponse('postCommentInChangeRequest') },
      refusals: [{ status: 400, description: '`page` is not a page of the change request' }],
      async handler({ caller, deadline, params, query, body }) {
        const b = body as Body;
        const c = await comments.postComment(
          { changeRequest: crRef(params), body: bodyToMessage(b.body!), page: b.page ?? '', node: b.node ?? '', format: (query.format as string) ?? '' },
          { caller, deadline },
        );
        return { body: await oneComment(c, { caller, deadline }) };
      },
    },
    {
      method: 'get',
      path: `${BASE}/:commentId`,
      operationId: 'getCommentInChangeRequest',
      summary: 'A comment of the change request (readers)',
      tags: ['change-requests'],
      params: COMMENT,
      query: FORMAT_QUERY,
      success: { status: 200, description: 'The comment', schema: officialResponse('getCommentInChangeRequest') },
      async handler({ caller, deadline, params, query }) {
        return { body: await oneComment(await comments.getComment(commentRef(params, query), { caller, deadline }), { caller, deadline }) };
      },
    },
    {
      method: 'put',
      path: `${BASE}/:commentId`,
      operationId: 'updateCommentInChangeRequest',
      summary: 'Resolve or reopen a comment, react to it, or change its body (commenters; the body: its author only)',
      tags: ['change-requests'],
      params: COMMENT,
      body: UPDATE_COMMENT,
      success: { status: 200, description: 'The comment', schema: officialResponse('updateCommentInChangeRequest') },
      async handler({ caller, deadline, params, body }) {
        const b = body as Body;
        const c = await comments.updateComment(
          {
            comment: commentRef(params),
            resolved: b.resolved,
            body: b.body === undefined ? undefined : bodyToMessage(b.body),
            addedReactions: b.addedReactions ?? [],
            removedReactions: b.removedReactions ?? [],
          },
          { caller, deadline },
        );
        return { body: await oneComment(c, { caller, deadline }) };
      },
    },
    {
      method: 'delete',
      path: `${BASE}/:commentId`,
      operationId: 'deleteCommentInChangeRequest',
      summary: 'Delete a comment and its replies (its author, or a space admin); 204 when it was already deleted',
      tags: ['change-requests'],
      params: COMMENT,
      success: { status: 205, description: 'The comment was deleted' },
      alternatives: [{ status: 204, description: 'The comment was already deleted (one that never existed is a 404)' }],
      async handler({ caller, deadline, params }) {
        return (await comments.deleteComment(commentRef(params), { caller, deadline })).deleted ? {} : { status: 204 };
      },
    },
    {
      method: 'get',
      path: `${BASE}/:commentId/replies`,
      operationId: 'listCommentRepliesInChangeRequest',
      summary: 'The replies to a comment, oldest first (readers)',
      tags: ['change-requests'],
      params: COMMENT,
      query: REPLIES_QUERY,
      success: { status: 200, description: 'A page of replies', schema: officialResponse('listCommentRepliesInChangeRequest') },
      async handler({ caller, deadline, params, query }) {
        const r = await comments.listReplies({ comment: commentRef(params, query), page: pageOf(query) }, { caller, deadline });
        return { body: toList(await manyReplies(r.items, params, { caller, deadline }), r.page) };
      },
    },
    {
      method: 'post',
      path: `${BASE}/:commentId/replies`,
      operationId: 'postCommentReplyInChangeRequest',
      summary: 'Reply to a comment (commenters)',
      tags: ['change-requests'],
      params: COMMENT,
      query: FORMAT_QUERY,
      body: POST_REPLY,
      success: { status: 200, description: 'The reply', schema: officialResponse('postCommentReplyInChangeRequest') },
      async handler({ caller, deadline, params, query, body }) {
        const r = await comments.postReply({ comment: commentRef(params, query), body: bodyToMessage((body as Body).body!) }, { caller, deadline });
        return { body: await oneReply(r, params, { caller, deadline }) };
      },
    },
    {
      method: 'get',
      path: `${BASE}/:commentId/replies/:commentReplyId`,
      operationId: 'getCommentReplyInChangeRequest',
      summary: 'A reply to a comment (readers)',
      tags: ['change-requests'],
      params: REPLY,
      query: FORMAT_QUERY,
      success: { status: 200, description: 'The reply', schema: officialResponse('getCommentReplyInChangeRequest') },
      async handler({ caller, deadline, params, query }) {
        return { body: await oneReply(await comments.getReply(replyRef(params, query), { caller, deadline }), params, { caller, deadline }) };
      },
    },
    {
      method: 'put',
      path: `${BASE}/:commentId/replies/:commentReplyId`,
      operationId: 'updateCommentReplyInChangeRequest',
      summary: 'React to a reply, or change its body (commenters; the body: its author only)',
      tags: ['change-requests'],
      params: REPLY,
      body: UPDATE_REPLY,
      success: { status: 200, description: 'The reply', schema: officialResponse('updateCommentReplyInChangeRequest') },
      async handler({ caller, deadline, params, body }) {
        const b = body as Body;
        const r = await comments.updateReply(
          {
            reply: replyRef(params),
            body: b.body === undefined ? undefined : bodyToMessage(b.body),
            addedReactions: b.addedReactions ?? [],
            removedReactions: b.removedReactions ?? [],
          },
          { caller, deadline },
        );
        return { body: await oneReply(r, params, { caller, deadline }) };
      },
    },
    {
      method: 'delete',
      path: `${BASE}/:commentId/replies/:commentReplyId`,
      operationId: 'deleteCommentReplyInChangeRequest',
      summary: 'Delete a reply (its author, or a space admin); 204 when it was already deleted',
      tags: ['change-requests'],
      params: REPLY,
      success: { status: 205, description: 'The reply was deleted' },
      alternatives: [{ status: 204, description: 'The reply was already deleted (one that never existed is a 404)' }],
      async handler({ caller, deadline, params }) {
        return (await comments.deleteReply(replyRef(params), { caller, deadline })).deleted ? {} : { status: 204 };
      },
    },
  ];
}
