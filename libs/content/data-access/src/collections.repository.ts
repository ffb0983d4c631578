import { ClientSession, Db, Filter } from 'mongodb';
import type { CollectionRecord } from '@bindery/content/domain';
import { ContentItemsRepository } from './content-items.repository';
import { COLLECTIONS } from './indexes';

export class CollectionsRepository extends ContentItemsRepository<CollectionRecord> {
  constructor(db: Db, eventsRecorded?: () => void) {
    super(db, COLLECTIONS.collections, 'collection', eventsRecorded);
  }

  /** The organization's collections not purged, in id order: live ones, and deleted ones too with `includeDeleted`. */
  ofOrganization(organizationId: string, options: { includeDeleted?: boolean; session?: ClientSession } = {}): Promise<CollectionRecord[]> {
    return this.all({ organizationId, purgedAt: { $exists: false } } as Filter<CollectionRecord>, options);
  }
}
