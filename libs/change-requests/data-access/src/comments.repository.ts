import { ClientSession, Db, Filter, UpdateFilter } from 'mongodb';
import type { EventEnvelope } from '@bindery/platform/events';
import { Repository } from '@bindery/platform/mongo';
import type { CommentRecord, ReplyRecord } from '@bindery/change-requests/domain';
import { COLLECTIONS } from './indexes';

export interface CommentQuery {
  changeRequestId: string;
  status?: 'open' | 'resolved';
  page?: string;
  authors?: string[];
}

/** Comments of change requests; deleted ones are kept (soft-deleted) until their events are relayed. */
export class CommentsRepository extends Repository<CommentRecord> {
  constructor(db: Db, eventsRecorded?: () => void) {
    super(db, COLLECTIONS.comments, eventsRecorded, { softDeleteField: 'deletedAt' });
  }

  insert(record: CommentRecord, events: EventEnvelope[], session?: ClientSession) {
    return this.insertRecord(record, events, session);
  }

  /** Live comments after `after` in id order, at most `limit` (the announcement of their states walks them). */
  statusesAfter(after: string, limit: number): Promise<Pick<CommentRecord, '_id' | 'organizationId' | 'spaceId' | 'changeRequestId' | 'status'>[]> {
    return this.findMany({ _id: { $gt: after } } as Filter<CommentRecord>, {
      sort: { _id: 1 },
      limit,
      projection: { _id: 1, organizationId: 1, spaceId: 1, changeRequestId: 1, status: 1 },
    });
  }

  /** Records `events` on the live comment if its status is still `status` (it is announced as it is); false otherwise. */
  announce(id: string, status: CommentRecord['status'], events: EventEnvelope[]): Promise<boolean> {
    return this.updateMatched({ _id: id, status }, {}, events);
  }

  /** A live comment of the change request; with `includeDeleted`, a deleted one too (it has `deletedAt`). */
  get(changeRequestId: string, id: string, session?: ClientSession, includeDeleted = false): Promise<(CommentRecord & { deletedAt?: string }) | null> {
    return this.findOne({ _id: id, changeRequestId }, { session, includeDeleted });
  }

  private filterOf(q: CommentQuery): Filter<CommentRecord> {
    const f: Filter<CommentRecord> = { changeRequestId: q.changeRequestId };
    if (q.status) f.status = q.status;
    if (q.page) f.page = q.page;
    if (q.authors?.length) f.postedBy = { $in: q.authors };
    return f;
  }

  page(q: CommentQuery, direction: 1 | -1, after: { k?: string | number; id: string } | undefined, limit: number) {
    return this.keysetPage(this.filterOf(q), { key: 'postedAt', direction, after, limit });
  }

  count(q: CommentQuery) {
    return this.countWhere(this.filterOf(q));
  }

  /** Open comments per change request. */
  async openCounts(changeRequestIds: string[]): Promise<Map<string, number>> {
    const rows = await this.collection
      .aggregate<{ _id: string; n: number }>([
        { $match: { changeRequestId: { $in: changeRequestIds }, status: 'open', deletedAt: { $exists: false } } },
        { $group: { _id: '$changeRequestId', n: { $sum: 1 } } },
      ])
      .toArray();
    return new Map(rows.map((r) => [r._id, r.n]));
  }

  update(changeRequestId: string, id: string, update: UpdateFilter<CommentRecord> & { $set?: Partial<CommentRecord> }, events: EventEnvelope[], session?: ClientSession) {
    return this.updateRecord({ _id: id, changeRequestId }, update, events, { session });
  }

  /** Marks a live comment deleted; false when there was none. */
  remove(changeRequestId: string, id: string, at: string, events: EventEnvelope[], session?: ClientSession) {
    return this.updateMatched({ _id: id, changeRequestId }, { $set: { deletedAt: at } as Partial<CommentRecord> }, events, { session });
  }

  async removeOfSpace(spaceId: string, session?: ClientSession): Promise<number> {
    return this.hardDelete({ spaceId } as Filter<CommentRecord>, session);
  }
}

/** Replies to comments; a comment's `replies` and `repliers` change in the same transaction as its replies. */
export class RepliesRepository extends Repository<ReplyRecord> {
  constructor(db: Db, eventsRecorded?: () => void) {
    super(db, COLLECTIONS.replies, eventsRecorded, { softDeleteField: 'deletedAt' });
  }

  insert(record: ReplyRecord, events: EventEnvelope[], session?: ClientSession) {
    return this.insertRecord(record, events, session);
  }

  /** A live reply of the comment; with `includeDeleted`, a deleted one too (it has `deletedAt`). */
  get(commentId: string, id: string, session?: ClientSession, includeDeleted = false): Promise<(ReplyRecord & { deletedAt?: string }) | null> {
    return this.findOne({ _id: id, commentId }, { session, includeDeleted });
  }

  page(commentId: string, after: { k?: string | number; id: string } | undefined, limit: number) {
    return this.keysetPage({ commentId }, { key: 'postedAt', direction: 1, after, limit });
  }

  count(commentId: string, session?: ClientSession) {
    return this.countWhere({ commentId }, { session });
  }

  /** Who replied to a comment (live replies), how often and the latest when, first replier first. */
  async repliersOf(commentId: string, session?: ClientSession): Promise<Array<{ user: string; count: number; updatedAt: string }>> {
    const rows = await this.collection
      .aggregate<{ _id: string; count: number; updatedAt: string; first: string }>(
        [
          { $match: { commentId, deletedAt: { $exists: false } } },
          { $group: { _id: '$postedBy', count: { $sum: 1 }, updatedAt: { $max: '$postedAt' }, first: { $min: '$postedAt' } } },
          { $sort: { first: 1, _id: 1 } },
        ],
        { session },
      )
      .toArray();
    return rows.map((r) => ({ user: r._id, count: r.count, updatedAt: r.updatedAt }));
  }

  update(commentId: string, id: string, update: UpdateFilter<ReplyRecord> & { $set?: Partial<ReplyRecord> }, events: EventEnvelope[], session?: ClientSession) {
    return this.updateRecord({ _id: id, commentId }, update, events, { session });
  }

  remove(commentId: string, id: string, at: string, events: EventEnvelope[], session?: ClientSession) {
    return this.updateMatched({ _id: id, commentId }, { $set: { deletedAt: at } as Partial<ReplyRecord> }, events, { session });
  }

  /** Marks every reply of a deleted comment deleted. */
  async removeOfComment(commentId: string, at: string, session?: ClientSession): Promise<void> {
    await this.collection.updateMany({ commentId, deletedAt: { $exists: false } } as never, { $set: { deletedAt: at } } as never, { session });
  }

  async removeOfSpace(spaceId: string, session?: ClientSession): Promise<number> {
    return this.hardDelete({ spaceId } as Filter<ReplyRecord>, session);
  }
}
