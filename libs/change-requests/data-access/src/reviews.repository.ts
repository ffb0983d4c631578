import { ClientSession, Db, Filter } from 'mongodb';
import type { EventEnvelope } from '@bindery/platform/events';
import { Repository } from '@bindery/platform/mongo';
import type { ReviewRecord } from '@bindery/change-requests/domain';
import { COLLECTIONS } from './indexes';

/** Submitted reviews; a review is never changed, a newer one by the same reviewer supersedes it. */
export class ReviewsRepository extends Repository<ReviewRecord> {
  constructor(db: Db, eventsRecorded?: () => void) {
    super(db, COLLECTIONS.reviews, eventsRecorded);
  }

  insert(record: ReviewRecord, events: EventEnvelope[], session?: ClientSession) {
    return this.insertRecord(record, events, session);
  }

  get(changeRequestId: string, id: string) {
    return this.findOne({ _id: id, changeRequestId });
  }

  page(changeRequestId: string, after: { k?: string | number; id: string } | undefined, limit: number) {
    return this.keysetPage({ changeRequestId }, { key: 'createdAt', direction: 1, after, limit });
  }

  count(changeRequestId: string) {
    return this.countWhere({ changeRequestId });
  }

  /** Every review of the change request (for `outdated`, which depends on the later ones). */
  all(changeRequestId: string) {
    return this.findMany({ changeRequestId }, { sort: { createdAt: 1, _id: 1 } });
  }

  async removeOfSpace(spaceId: string, session?: ClientSession): Promise<number> {
    return this.hardDelete({ spaceId } as Filter<ReviewRecord>, session);
  }
}
