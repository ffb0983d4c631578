import { assertMay, bodyFromInput, ChangeRequestRecord, CommentRecord, reactionsAfter, SpaceAccess } from '@bindery/change-requests/domain';
import { oneAtATime } from '@bindery/platform/mongo';
import { forbidden, invalid, notFound } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { bodyFromMessage, changeRequestsV1 as pb } from '@bindery/shared/contracts';
import { newId } from '@bindery/shared/ids';
import { decodeCursor, resolveLimit, toPage } from '@bindery/shared/pagination';
import { ChangeRequestsDeps, nowOf } from '../deps';
import { visibleChangeRequest } from '../space-access-from-content';
import { commentEvent } from './comment-events';
import { commentMessage } from './comment-json';
import { assertPageInHead, withTargetPages } from './target-pages';

const MAX_NODE = 128;
const MAX_AUTHORS = 100;
const FORMATS = ['', 'document', 'markdown'];

export function formatOf(format: string): string {
  if (!FORMATS.includes(format)) throw invalid('format must be document or markdown.');
  return format || 'document';
}

function oneOf<T extends string>(value: string, allowed: readonly T[], field: string): T | undefined {
  if (!value) return undefined;
  if (!allowed.includes(value as T)) throw invalid(`${field} must be one of ${allowed.join(', ')}.`);
  return value as T;
}

/** A live comment of a change request the caller can read (404 otherwise). */
export async function visibleComment(deps: ChangeRequestsDeps, caller: Caller, ref: pb.CommentRef | undefined) {
  const { access, cr } = await visibleChangeRequest(deps, caller, ref?.changeRequest?.spaceId ?? '', ref?.changeRequest?.changeRequest ?? '');
  const comment = await deps.comments.get(cr._id, ref?.commentId ?? '');
  if (!comment) throw notFound('Comment');
  return { access, cr, comment };
}

/** The messages of comments, their target pages described. */
async function messages(deps: ChangeRequestsDeps, caller: Caller, access: SpaceAccess, cr: ChangeRequestRecord, comments: CommentRecord[], format: string) {
  return withTargetPages(
    deps,
    caller,
    cr,
    comments.map((c) => commentMessage(c, caller, access, format)),
  );
}

/** The comments of a change request, newest first by default (readers). */
export async function listComments(deps: ChangeRequestsDeps, caller: Caller, req: pb.ListCommentsRequest): Promise<pb.ListCommentsResponse> {
  const format = formatOf(req.format);
  const order = oneOf(req.order, ['asc', 'desc'] as const, 'order') ?? 'desc';
  const status = oneOf(req.status, ['all', 'open', 'resolved'] as const, 'status') ?? 'all';
  if (req.authors.length > MAX_AUTHORS) throw invalid(`authors: at most ${MAX_AUTHORS} users.`);
  const { access, cr } = await visibleChangeRequest(deps, caller, req.changeRequest?.spaceId ?? '', req.changeRequest?.changeRequest ?? '');
  const query = {
    changeRequestId: cr._id,
    status: status === 'all' ? undefined : status,
    page: req.targetPage || undefined,
    authors: req.authors.length ? [...new Set(req.authors)] : undefined,
  };
  const limit = resolveLimit(req.page?.limit);
  const cursor = decodeCursor(req.page?.page || undefined);
  const [rows, count] = await Promise.all([deps.comments.page(query, order === 'asc' ? 1 : -1, cursor, limit), deps.comments.count(query)]);
  const page = toPage(
    rows,
    limit,
    count,
    (c) => ({ k: c.postedAt, id: c._id }),
    (c) => c,
  );
  return { items: await messages(deps, caller, access, cr, page.items, format), page: { count: page.count, nextPage: page.nextPage } };
}

/**
 * Posts a comment on the change request's head (commenters), merged change requests included. A
 * target page must be a page of the head; a node is the id of a block of it, kept as given.
 */
export async function postComment(deps: ChangeRequestsDeps, caller: Caller, req: pb.PostCommentRequest): Promise<pb.Comment> {
  const format = formatOf(req.format);
  if (req.node.length > MAX_NODE) throw invalid(`node must be at most ${MAX_NODE} characters.`);
  const { access, cr } = await visibleChangeRequest(deps, caller, req.changeRequest?.spaceId ?? '', req.changeRequest?.changeRequest ?? '');
  assertMay(access, 'comment');
  const body = bodyFromInput(bodyFromMessage(req.body ?? {}));
  if (req.page) await assertPageInHead(deps, caller, cr, req.page);
  const comment: CommentRecord = {
    _id: newId(),
    organizationId: cr.organizationId,
    spaceId: cr.spaceId,
    changeRequestId: cr._id,
    postedBy: caller.userId,
    postedAt: nowOf(deps),
    body,
    revision: cr.revision,
    ...(req.page ? { page: req.page } : {}),
    ...(req.node ? { node: req.node } : {}),
    status: 'open',
    reactions: [],
    replies: 0,
    repliers: [],
  };
  await deps.comments.insert(comment, [commentEvent('commentCreated', cr, comment._id, comment.status, caller.userId)]);
  return (await messages(deps, caller, access, cr, [comment], format))[0];
}

export async function getComment(deps: ChangeRequestsDeps, caller: Caller, req: pb.CommentRef): Promise<pb.Comment> {
  const format = formatOf(req.format);
  const { access, cr, comment } = await visibleComment(deps, caller, req);
  return (await messages(deps, caller, access, cr, [comment], format))[0];
}

/**
 * Resolves or reopens a comment, changes its body, adds and removes the caller's reactions
 * (commenters; only its author changes the body). The comment is read and written in one
 * transaction, so concurrent reactions and replies are never lost.
 */
export async function updateComment(deps: ChangeRequestsDeps, caller: Caller, req: pb.UpdateCommentRequest): Promise<pb.Comment> {
  const { access, cr, comment: seen } = await visibleComment(deps, caller, req.comment);
  assertMay(access, 'comment');
  if (req.body !== undefined && seen.postedBy !== caller.userId) throw forbidden('Only its author can change the body of a comment.');
  const body = req.body !== undefined ? bodyFromInput(bodyFromMessage(req.body)) : undefined;
  const updated = await oneAtATime(`comment:${seen._id}`, () =>
    deps.transaction(async (session) => {
      const c = await deps.comments.get(cr._id, seen._id, session);
      if (!c) throw notFound('Comment');
      const now = nowOf(deps);
      const set: Partial<CommentRecord> = {};
      const unset: Record<string, ''> = {};
      if (body) Object.assign(set, { body, editedAt: now });
      if (req.addedReactions.length || req.removedReactions.length) {
        const reactions = reactionsAfter(c.reactions, caller.userId, req.addedReactions, req.removedReactions, now);
        if (JSON.stringify(reactions) !== JSON.stringify(c.reactions)) set.reactions = reactions;
      }
      if (req.resolved === true && c.status !== 'resolved') Object.assign(set, { status: 'resolved', resolvedAt: now, resolvedBy: caller.userId });
      if (req.resolved === false && c.status === 'resolved') {
        set.status = 'open';
        Object.assign(unset, { resolvedAt: '', resolvedBy: '' });
      }
      if (!Object.keys(set).length) return c;
      const update = Object.keys(unset).length ? { $set: set, $unset: unset } : { $set: set };
      const after = await deps.comments.update(cr._id, c._id, update, [commentEvent('commentUpdated', cr, c._id, set.status ?? c.status, caller.userId)], session);
      if (!after) throw notFound('Comment');
      return after;
    }),
  );
  return (await messages(deps, caller, access, cr, [updated], 'document'))[0];
}

/**
 * Deletes a comment and its replies together (its author, who still needs the comment role, or a
 * space admin); deleted: false when it was deleted already.
 */
export async function deleteComment(deps: ChangeRequestsDeps, caller: Caller, req: pb.CommentRef): Promise<pb.DeleteResponse> {
  const { access, cr } = await visibleChangeRequest(deps, caller, req.changeRequest?.spaceId ?? '', req.changeRequest?.changeRequest ?? '');
  const comment = await deps.comments.get(cr._id, req.commentId, undefined, true);
  if (!comment) throw notFound('Comment');
  assertMayDelete(access, caller, comment.postedBy, 'comment');
  if (comment.deletedAt) return { deleted: false };
  const deleted = await oneAtATime(`comment:${comment._id}`, () =>
    deps.transaction(async (session) => {
      const at = nowOf(deps);
      if (!(await deps.comments.remove(cr._id, comment._id, at, [commentEvent('commentDeleted', cr, comment._id, comment.status, caller.userId)], session))) return false;
      await deps.replies.removeOfComment(comment._id, at, session);
      return true;
    }),
  );
  return { deleted };
}

/** Authors (with the comment role) delete theirs, space admins anyone's. */
export function assertMayDelete(access: SpaceAccess, caller: Caller, postedBy: string, what: 'comment' | 'reply'): void {
  if (access.can.admin) return;
  if (postedBy !== caller.userId) throw forbidden(`Only its author or a space admin can delete a ${what}.`);
  assertMay(access, 'comment');
}
