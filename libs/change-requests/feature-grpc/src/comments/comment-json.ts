import type { Caller } from '@bindery/platform/grpc';
import { bodyInFormat, CommentRecord, ReactionRecord, ReplyRecord, SpaceAccess } from '@bindery/change-requests/domain';
import { bodyToMessage, changeRequestsV1 as pb, type JsonObject } from '@bindery/shared/contracts';

const reactionsOf = (reactions: ReactionRecord[]): pb.Reaction[] =>
  reactions.map((r) => ({ emoji: r.emoji, users: r.users.map((u) => ({ user: u.user, reactedAt: u.reactedAt })) }));

/** What the caller may do with a comment or reply: authors edit theirs, authors and admins delete, commenters reply. */
export function commentPermissions(postedBy: string, caller: Caller, access: SpaceAccess): pb.CommentPermissions {
  const mine = postedBy === caller.userId;
  return { view: true, edit: mine && access.can.comment, reply: access.can.comment, delete: (mine && access.can.comment) || access.can.admin };
}

/** A stored body as the message of the format asked. */
const bodyMessage = (body: CommentRecord['body'], format: string) => bodyToMessage(bodyInFormat(body, format) as { document?: JsonObject; markdown?: string });

export function commentMessage(c: CommentRecord, caller: Caller, access: SpaceAccess, format: string): pb.Comment {
  return {
    id: c._id,
    changeRequest: c.changeRequestId,
    postedBy: c.postedBy,
    postedAt: c.postedAt,
    editedAt: c.editedAt,
    reactions: reactionsOf(c.reactions),
    replies: c.replies,
    repliers: c.repliers,
    body: bodyMessage(c.body, format),
    space: c.spaceId,
    revision: c.revision,
    page: c.page,
    node: c.node,
    review: c.review,
    status: c.status,
    resolvedAt: c.resolvedAt,
    resolvedBy: c.resolvedBy,
    permissions: commentPermissions(c.postedBy, caller, access),
  };
}

export function replyMessage(r: ReplyRecord, caller: Caller, access: SpaceAccess, format: string): pb.Reply {
  return {
    id: r._id,
    comment: r.commentId,
    postedBy: r.postedBy,
    postedAt: r.postedAt,
    editedAt: r.editedAt,
    reactions: reactionsOf(r.reactions),
    body: bodyMessage(r.body, format),
    permissions: commentPermissions(r.postedBy, caller, access),
  };
}
