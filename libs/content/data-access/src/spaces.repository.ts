import { ClientSession, Db, Filter } from 'mongodb';
import type { SpaceCounts, SpaceRecord } from '@bindery/content/domain';
import { ContentItemsRepository } from './content-items.repository';
import { COLLECTIONS } from './indexes';

export class SpacesRepository extends ContentItemsRepository<SpaceRecord> {
  constructor(db: Db, eventsRecorded?: () => void) {
    super(db, COLLECTIONS.spaces, 'space', eventsRecorded);
  }

  /**
   * Moves a live space's current revision from `from` to `to`, only if it is still `from` (the
   * compare-and-set that keeps concurrent writers from losing each other's changes); false otherwise.
   */
  moveRevision(organizationId: string, spaceId: string, from: string, to: string, at: string, session?: ClientSession): Promise<boolean> {
    return this.updateMatched({ _id: spaceId, organizationId, revision: from }, { $set: { revision: to, updatedAt: at } } as never, [], { session });
  }

  /**
   * Records change-requests' counts for a space, deleted or not: a projected fact, so no event and no
   * change of `updatedAt`. False when no such space is stored (yet, or any more).
   */
  async setCounts(spaceId: string, counts: SpaceCounts, session?: ClientSession): Promise<boolean> {
    const r = await this.collection.updateOne({ _id: spaceId } as never, { $set: { counts } }, { session });
    return r.matchedCount === 1;
  }

  /** Live spaces after `after` in id order, at most `limit`: ids and organizations. */
  async idsAfter(after: string, limit: number): Promise<{ _id: string; organizationId: string }[]> {
    return this.findMany({ _id: { $gt: after } } as Filter<SpaceRecord>, { sort: { _id: 1 }, limit, projection: { _id: 1, organizationId: 1 } });
  }
}
