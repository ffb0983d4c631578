import { ClientSession, Db } from 'mongodb';
import type { SpaceCounts } from '@bindery/content/domain';
import { COLLECTIONS } from './indexes';

/** What content knows of one change request or one live comment: the status its last event gave. */
interface ItemDoc {
  /** `cr:<changeRequestId>` or `comment:<commentId>` */
  _id: string;
  spaceId: string;
  kind: 'change-request' | 'comment';
  status: string;
}

/**
 * Content's copy of the change requests and live comments of each space, from change-requests'
 * events alone (each change request's and comment's events come from one document of change-requests,
 * in order, keyed by the space). A space's counts are computed from it; every write takes the
 * consumer's session, so an event's item and the counts it changes commit with its marker.
 */
export class ChangeRequestItems {
  constructor(private readonly db: Db) {}

  private get col() {
    return this.db.collection<ItemDoc>(COLLECTIONS.changeRequestItems);
  }

  /** Records a change request's status (created, updated, merged, archived, announced). */
  async changeRequest(spaceId: string, changeRequestId: string, status: string, session?: ClientSession): Promise<void> {
    await this.col.updateOne({ _id: `cr:${changeRequestId}` }, { $set: { spaceId, kind: 'change-request', status } }, { upsert: true, session });
  }

  /** Records a live comment's status (open or resolved). */
  async comment(spaceId: string, commentId: string, status: string, session?: ClientSession): Promise<void> {
    await this.col.updateOne({ _id: `comment:${commentId}` }, { $set: { spaceId, kind: 'comment', status } }, { upsert: true, session });
  }

  /** Forgets a deleted comment. */
  async commentDeleted(commentId: string, session?: ClientSession): Promise<void> {
    await this.col.deleteOne({ _id: `comment:${commentId}` }, { session });
  }

  /** The known status of a comment, if any (an event without one keeps it). */
  async commentStatus(commentId: string, session?: ClientSession): Promise<string | undefined> {
    return (await this.col.findOne({ _id: `comment:${commentId}` }, { session, projection: { status: 1 } }))?.status;
  }

  /** The space's counts: change requests by status, open comments. */
  async countsOf(spaceId: string, session?: ClientSession): Promise<SpaceCounts> {
    const rows = await this.col
      .aggregate<{ _id: { kind: string; status: string }; n: number }>([{ $match: { spaceId } }, { $group: { _id: { kind: '$kind', status: '$status' }, n: { $sum: 1 } } }], {
        session,
      })
      .toArray();
    const n = (kind: string, status?: string) => rows.filter((r) => r._id.kind === kind && (status === undefined || r._id.status === status)).reduce((a, r) => a + r.n, 0);
    return {
      comments: n('comment', 'open'),
      changeRequests: n('change-request'),
      changeRequestsOpen: n('change-request', 'open'),
      changeRequestsDraft: n('change-request', 'draft'),
    };
  }

  /** Forgets a purged space's items. */
  async removeOfSpace(spaceId: string, session?: ClientSession): Promise<void> {
    await this.col.deleteMany({ spaceId }, { session });
  }
}
