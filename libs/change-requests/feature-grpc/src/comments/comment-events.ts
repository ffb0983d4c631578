import { ChangeRequestEvents as E } from '@bindery/change-requests/client';
import type { ChangeRequestRecord, CommentRecord } from '@bindery/change-requests/domain';
import { SOURCE } from '../deps';

type CommentKind = 'commentCreated' | 'commentUpdated' | 'commentDeleted';
type ReplyKind = 'replyCreated' | 'replyUpdated' | 'replyDeleted';

/** The `change_requests.comment.*` event of a comment of `cr`, with the comment's status after the change. */
export function commentEvent(kind: CommentKind, cr: ChangeRequestRecord, commentId: string, status: CommentRecord['status'], actor: string) {
  return E[kind].create(SOURCE, cr.spaceId, { organizationId: cr.organizationId, spaceId: cr.spaceId, changeRequestId: cr._id, commentId, status, actor }, cr.organizationId);
}

/** The `change_requests.reply.*` event of a reply to a comment of `cr`. */
export function replyEvent(kind: ReplyKind, cr: ChangeRequestRecord, commentId: string, replyId: string, actor: string) {
  return E[kind].create(SOURCE, cr.spaceId, { organizationId: cr.organizationId, spaceId: cr.spaceId, changeRequestId: cr._id, commentId, replyId, actor }, cr.organizationId);
}
