import { oneAtATime, type ClientSession } from '@bindery/platform/mongo';
import { assertMay, bodyFromInput, reactionsAfter, ReplyRecord } from '@bindery/change-requests/domain';
import { forbidden, notFound } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { bodyFromMessage, changeRequestsV1 as pb } from '@bindery/shared/contracts';
import { newId } from '@bindery/shared/ids';
import { decodeCursor, resolveLimit, toPage } from '@bindery/shared/pagination';
import { ChangeRequestsDeps, nowOf } from '../deps';
import { replyEvent } from './comment-events';
import { replyMessage } from './comment-json';
import { assertMayDelete, formatOf, visibleComment } from './comments.service';

/**
 * Recounts a comment's `replies` and `repliers` from its live replies, inside the transaction that
 * added or removed one. Every such transaction writes the comment, so two of them at once conflict
 * and one runs again on what the other committed: the counts never miss a reply.
 */
async function recount(deps: ChangeRequestsDeps, changeRequestId: string, commentId: string, session: ClientSession): Promise<void> {
  const [replies, repliers] = await Promise.all([deps.replies.count(commentId, session), deps.replies.repliersOf(commentId, session)]);
  const updated = await deps.comments.update(changeRequestId, commentId, { $set: { replies, repliers } }, [], session);
  if (!updated) throw notFound('Comment');
}

/** A live reply of a live comment the caller can read (404 otherwise). */
async function visibleReply(deps: ChangeRequestsDeps, caller: Caller, ref: pb.ReplyRef | undefined) {
  const found = await visibleComment(deps, caller, ref?.comment);
  const reply = await deps.replies.get(found.comment._id, ref?.replyId ?? '');
  if (!reply) throw notFound('Reply');
  return { ...found, reply };
}

/** The replies of a comment, oldest first (readers). */
export async function listReplies(deps: ChangeRequestsDeps, caller: Caller, req: pb.ListRepliesRequest): Promise<pb.ListRepliesResponse> {
  const format = formatOf(req.comment?.format ?? '');
  const { access, comment } = await visibleComment(deps, caller, req.comment);
  const limit = resolveLimit(req.page?.limit);
  const cursor = decodeCursor(req.page?.page || undefined);
  const [rows, count] = await Promise.all([deps.replies.page(comment._id, cursor, limit), deps.replies.count(comment._id)]);
  const page = toPage(
    rows,
    limit,
    count,
    (r) => ({ k: r.postedAt, id: r._id }),
    (r) => replyMessage(r, caller, access, format),
  );
  return { items: page.items, page: { count: page.count, nextPage: page.nextPage } };
}

/** Replies to a comment (commenters): the reply and the comment's counts are written in one transaction. */
export async function postReply(deps: ChangeRequestsDeps, caller: Caller, req: pb.PostReplyRequest): Promise<pb.Reply> {
  const format = formatOf(req.comment?.format ?? '');
  const { access, cr, comment } = await visibleComment(deps, caller, req.comment);
  assertMay(access, 'comment');
  const reply: ReplyRecord = {
    _id: newId(),
    spaceId: cr.spaceId,
    changeRequestId: cr._id,
    commentId: comment._id,
    postedBy: caller.userId,
    postedAt: nowOf(deps),
    body: bodyFromInput(bodyFromMessage(req.body ?? {})),
    reactions: [],
  };
  await oneAtATime(`comment:${comment._id}`, () =>
    deps.transaction(async (session) => {
      await deps.replies.insert(reply, [replyEvent('replyCreated', cr, comment._id, reply._id, caller.userId)], session);
      await recount(deps, cr._id, comment._id, session);
    }),
  );
  return replyMessage(reply, caller, access, format);
}

export async function getReply(deps: ChangeRequestsDeps, caller: Caller, req: pb.ReplyRef): Promise<pb.Reply> {
  const format = formatOf(req.comment?.format ?? '');
  const { access, reply } = await visibleReply(deps, caller, req);
  return replyMessage(reply, caller, access, format);
}

/** Changes a reply's body (its author) or the caller's reactions to it (commenters). */
export async function updateReply(deps: ChangeRequestsDeps, caller: Caller, req: pb.UpdateReplyRequest): Promise<pb.Reply> {
  const { access, cr, comment, reply: seen } = await visibleReply(deps, caller, req.reply);
  assertMay(access, 'comment');
  if (req.body !== undefined && seen.postedBy !== caller.userId) throw forbidden('Only its author can change the body of a reply.');
  const body = req.body !== undefined ? bodyFromInput(bodyFromMessage(req.body)) : undefined;
  const updated = await oneAtATime(`comment:${comment._id}`, () =>
    deps.transaction(async (session) => {
      const r = await deps.replies.get(comment._id, seen._id, session);
      if (!r) throw notFound('Reply');
      const now = nowOf(deps);
      const set: Partial<ReplyRecord> = {};
      if (body) Object.assign(set, { body, editedAt: now });
      if (req.addedReactions.length || req.removedReactions.length) {
        const reactions = reactionsAfter(r.reactions, caller.userId, req.addedReactions, req.removedReactions, now);
        if (JSON.stringify(reactions) !== JSON.stringify(r.reactions)) set.reactions = reactions;
      }
      if (!Object.keys(set).length) return r;
      const after = await deps.replies.update(comment._id, r._id, { $set: set }, [replyEvent('replyUpdated', cr, comment._id, r._id, caller.userId)], session);
      if (!after) throw notFound('Reply');
      return after;
    }),
  );
  return replyMessage(updated, caller, access, 'document');
}

/**
 * Deletes a reply (its author, who still needs the comment role, or a space admin) and recounts the
 * comment in the same transaction; deleted: false when it was deleted already.
 */
export async function deleteReply(deps: ChangeRequestsDeps, caller: Caller, req: pb.ReplyRef): Promise<pb.DeleteResponse> {
  const { access, cr, comment } = await visibleComment(deps, caller, req.comment);
  const reply = await deps.replies.get(comment._id, req.replyId, undefined, true);
  if (!reply) throw notFound('Reply');
  assertMayDelete(access, caller, reply.postedBy, 'reply');
  if (reply.deletedAt) return { deleted: false };
  const deleted = await oneAtATime(`comment:${comment._id}`, () =>
    deps.transaction(async (session) => {
      if (!(await deps.replies.remove(comment._id, reply._id, nowOf(deps), [replyEvent('replyDeleted', cr, comment._id, reply._id, caller.userId)], session))) return false;
      await recount(deps, cr._id, comment._id, session);
      return true;
    }),
  );
  return { deleted };
}
