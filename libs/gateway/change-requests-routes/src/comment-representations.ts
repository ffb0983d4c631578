import type { Urls } from '@bindery/gateway/identity-routes';
import { bodyFromMessage, changeRequestsV1 as pb } from '@bindery/shared/contracts';
import type { UserJson } from '@bindery/gateway/change-request-json';
import { changeRequestLocation } from '@bindery/gateway/change-request-json';

const reactionsJson = (reactions: pb.Reaction[], user: (id: string) => UserJson) =>
  reactions.map((r) => ({ emoji: r.emoji, count: r.users.length, users: r.users.map((u) => ({ user: user(u.user), reactedAt: u.reactedAt })) }));

/**
 * What the caller may do. `react` repeats `reply` ("can the user react or send a reply"): the API
 * reference and the typed client name `reply`, @gitbook/api 0.130.0's schema requires `react`.
 */
const permissionsJson = (p: pb.CommentPermissions | undefined) => ({ view: !!p?.view, edit: !!p?.edit, reply: !!p?.reply, react: !!p?.reply, delete: !!p?.delete });

/** The target page: as the change request's head has it (`outdated`: no longer in it), or only its id when it was not looked up. */
const pageJson = (c: pb.Comment) => {
  const t = c.targetPage;
  if (!t) return { id: c.page! };
  return { id: t.id, title: t.title, ...(t.emoji ? { emoji: t.emoji } : {}), ...(t.icon ? { icon: t.icon } : {}), path: t.path, outdated: t.outdated };
};

const commentLocation = (urls: Urls, spaceId: string, changeRequestId: string, commentId: string) =>
  `${changeRequestLocation(urls, spaceId, changeRequestId)}/comments/${encodeURIComponent(commentId)}`;

/** The official Comment of a change request. */
export function commentJson(c: pb.Comment, user: (id: string) => UserJson, urls: Urls) {
  return {
    object: 'comment',
    id: c.id,
    postedBy: user(c.postedBy),
    postedAt: c.postedAt,
    ...(c.editedAt ? { editedAt: c.editedAt } : {}),
    reactions: reactionsJson(c.reactions, user),
    replies: c.replies,
    repliers: c.repliers.map((r) => ({ user: user(r.user), count: r.count, updatedAt: r.updatedAt })),
    body: bodyFromMessage(c.body ?? {}),
    target: {
      space: c.space,
      revision: c.revision,
      changeRequest: c.changeRequest,
      ...(c.page ? { page: pageJson(c) } : {}),
      ...(c.node ? { node: { id: c.node } } : {}),
      ...(c.review ? { review: c.review } : {}),
    },
    urls: { location: commentLocation(urls, c.space, c.changeRequest, c.id) },
    permissions: permissionsJson(c.permissions),
    status: c.status,
    ...(c.status === 'resolved' ? { resolvedAt: c.resolvedAt, resolvedBy: user(c.resolvedBy!) } : {}),
  };
}

/** The official CommentReply. */
export function replyJson(r: pb.Reply, spaceId: string, changeRequestId: string, user: (id: string) => UserJson, urls: Urls) {
  return {
    object: 'comment-reply',
    id: r.id,
    postedBy: user(r.postedBy),
    postedAt: r.postedAt,
    ...(r.editedAt ? { editedAt: r.editedAt } : {}),
    reactions: reactionsJson(r.reactions, user),
    body: bodyFromMessage(r.body ?? {}),
    urls: { location: `${commentLocation(urls, spaceId, changeRequestId, r.comment)}/replies/${encodeURIComponent(r.id)}` },
    permissions: permissionsJson(r.permissions),
  };
}

/** The users a comment names. */
export const usersOfComment = (c: pb.Comment) => [c.postedBy, c.resolvedBy, ...c.repliers.map((r) => r.user), ...c.reactions.flatMap((r) => r.users.map((u) => u.user))];
export const usersOfReply = (r: pb.Reply) => [r.postedBy, ...r.reactions.flatMap((x) => x.users.map((u) => u.user))];
