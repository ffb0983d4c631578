import { ClientSession, Db, Filter, UpdateFilter } from 'mongodb';
import type { EventEnvelope } from '@bindery/platform/events';
import { Repository } from '@bindery/platform/mongo';
import type { ChangeRequestRecord, ChangeRequestStatus, RequestedReviewer } from '@bindery/change-requests/domain';
import { COLLECTIONS } from './indexes';

export type ChangeRequestOrder = 'updatedAt' | 'createdAt';

export interface ChangeRequestQuery {
  spaceIds?: string[];
  organizationId?: string;
  statuses: ChangeRequestStatus[];
  creator?: string;
  contributor?: string;
  requestedReviewer?: string;
}

const WRITABLE: ChangeRequestStatus[] = ['draft', 'open'];

/**
 * Change requests. Every state change is a conditional write on what it depends on: the head moves
 * only from the head the change was computed on, a merge is claimed before it runs and finished only
 * by its claimant, nothing changes a merged change request.
 */
export class ChangeRequestsRepository extends Repository<ChangeRequestRecord> {
  constructor(db: Db, eventsRecorded?: () => void) {
    super(db, COLLECTIONS.changeRequests, eventsRecorded);
  }

  /** The space's next number: a counter that only goes up, so a number is never given twice. */
  async nextNumber(spaceId: string): Promise<number> {
    const r = await this.db
      .collection<{ _id: string; next: number }>(COLLECTIONS.counters)
      .findOneAndUpdate({ _id: spaceId }, { $inc: { next: 1 } }, { upsert: true, returnDocument: 'after' });
    return r!.next;
  }

  /** Change requests after `after` in id order, at most `limit` (the announcement of their states walks them). */
  statusesAfter(after: string, limit: number): Promise<Pick<ChangeRequestRecord, '_id' | 'organizationId' | 'spaceId' | 'number' | 'status' | 'revision'>[]> {
    return this.findMany({ _id: { $gt: after } } as Filter<ChangeRequestRecord>, {
      sort: { _id: 1 },
      limit,
      projection: { _id: 1, organizationId: 1, spaceId: 1, number: 1, status: 1, revision: 1 },
    });
  }

  /** Records `events` on the change request if its status is still `status` (it is announced as it is); false otherwise. */
  announce(id: string, status: ChangeRequestRecord['status'], events: EventEnvelope[]): Promise<boolean> {
    return this.updateMatched({ _id: id, status }, {}, events);
  }

  insert(record: ChangeRequestRecord, events: EventEnvelope[]) {
    return this.insertRecord(record, events);
  }

  /** By id or by number, in this space only. */
  find(spaceId: string, ref: string, session?: ClientSession): Promise<ChangeRequestRecord | null> {
    if (/^[1-9][0-9]{0,9}$/.test(ref)) return this.findOne({ spaceId, number: Number(ref) }, { session });
    return this.findOne({ _id: ref, spaceId }, { session });
  }

  private filterOf(q: ChangeRequestQuery): Filter<ChangeRequestRecord> {
    const f: Filter<ChangeRequestRecord> = { status: { $in: q.statuses } };
    if (q.spaceIds) f.spaceId = { $in: q.spaceIds };
    if (q.organizationId) f.organizationId = q.organizationId;
    if (q.creator) f.createdBy = q.creator;
    if (q.contributor) f.contributors = q.contributor;
    if (q.requestedReviewer) (f as Record<string, unknown>)['requestedReviewers.userId'] = q.requestedReviewer;
    return f;
  }

  /** Newest first on the order field. */
  page(q: ChangeRequestQuery, order: ChangeRequestOrder, after: { k?: string | number; id: string } | undefined, limit: number) {
    return this.keysetPage(this.filterOf(q), { key: order, direction: -1, after, limit });
  }

  count(q: ChangeRequestQuery) {
    return this.countWhere(this.filterOf(q));
  }

  /** Moves the head from `from` to `to` (a content edit or an update from the space); null when the head moved or the change request is closed. */
  moveHead(id: string, from: string, set: Partial<ChangeRequestRecord>, contributor: string, events: EventEnvelope[]) {
    return this.updateRecord(
      { _id: id, revision: from, status: { $in: WRITABLE }, merging: { $exists: false } },
      { $set: set, $addToSet: { contributors: contributor } } as UpdateFilter<ChangeRequestRecord>,
      events,
    );
  }

  /** Subject, description, status: never on a merged change request. */
  updateFields(id: string, set: Partial<ChangeRequestRecord>, unset: Array<keyof ChangeRequestRecord>, events: EventEnvelope[]) {
    const update = unset.length ? { $set: set, $unset: Object.fromEntries(unset.map((k) => [k, ''])) } : { $set: set };
    return this.updateRecord({ _id: id, status: { $ne: 'merged' } }, update as UpdateFilter<ChangeRequestRecord>, events);
  }

  /** Claims the merge: one claimant at a time (an abandoned claim expires); null when merged, archived or claimed. */
  claimMerge(id: string, token: string, now: string, until: string) {
    return this.updateRecord({ _id: id, status: { $in: WRITABLE }, $or: [{ merging: { $exists: false } }, { 'merging.until': { $lt: now } }] } as Filter<ChangeRequestRecord>, {
      $set: { merging: { token, until } },
    });
  }

  finishMerge(id: string, token: string, set: Partial<ChangeRequestRecord>, events: EventEnvelope[]) {
    return this.updateRecord(
      { _id: id, 'merging.token': token } as Filter<ChangeRequestRecord>,
      { $set: set, $unset: { merging: '' } } as UpdateFilter<ChangeRequestRecord>,
      events,
    );
  }

  releaseMerge(id: string, token: string) {
    return this.updateMatched({ _id: id, 'merging.token': token } as Filter<ChangeRequestRecord>, { $unset: { merging: '' } } as UpdateFilter<ChangeRequestRecord>);
  }

  /**
   * Requests a review from a user: added once (the filter on the same document makes a duplicate
   * impossible), or the existing request renewed; false when the change request is merged or full.
   * Either way the request's events are recorded with it.
   */
  async requestReviewer(id: string, entry: RequestedReviewer, max: number, events: EventEnvelope[]): Promise<boolean> {
    const added = await this.updateMatched(
      {
        _id: id,
        status: { $ne: 'merged' },
        'requestedReviewers.userId': { $ne: entry.userId },
        $expr: { $lt: [{ $size: '$requestedReviewers' }, max] },
      } as Filter<ChangeRequestRecord>,
      { $push: { requestedReviewers: entry } } as UpdateFilter<ChangeRequestRecord>,
      events,
    );
    if (added) return true;
    return this.updateMatched(
      { _id: id, status: { $ne: 'merged' }, 'requestedReviewers.userId': entry.userId } as Filter<ChangeRequestRecord>,
      { $set: { 'requestedReviewers.$': entry } } as UpdateFilter<ChangeRequestRecord>,
      events,
    );
  }

  /**
   * Marks activity on a change request that is neither merged nor archived, inside a transaction: a
   * merge or an archiving that commits meanwhile conflicts with it. Null when it is merged or archived.
   */
  touchWritable(id: string, updatedAt: string, session: ClientSession) {
    return this.updateRecord({ _id: id, status: { $in: WRITABLE } }, { $set: { updatedAt } }, [], { session });
  }

  /** Removes a requested reviewer; false when they were not requested. */
  removeReviewer(id: string, userId: string, events: EventEnvelope[]) {
    return this.updateMatched(
      { _id: id, 'requestedReviewers.userId': userId } as Filter<ChangeRequestRecord>,
      { $pull: { requestedReviewers: { userId } } } as UpdateFilter<ChangeRequestRecord>,
      events,
    );
  }

  /** A member left the organization: their review requests go. */
  async removeReviewerEverywhere(organizationId: string, userId: string, session?: ClientSession): Promise<number> {
    const r = await this.collection.updateMany({ organizationId, 'requestedReviewers.userId': userId } as never, { $pull: { requestedReviewers: { userId } } } as never, {
      session,
    });
    return r.modifiedCount;
  }

  async moveToOrganization(spaceIds: string[], organizationId: string, session?: ClientSession): Promise<void> {
    await this.collection.updateMany({ spaceId: { $in: spaceIds } } as never, { $set: { organizationId } }, { session });
  }

  async removeOfSpace(spaceId: string, session?: ClientSession): Promise<number> {
    const n = await this.hardDelete({ spaceId }, session);
    await this.db.collection<{ _id: string }>(COLLECTIONS.counters).deleteOne({ _id: spaceId }, { session });
    return n;
  }
}
