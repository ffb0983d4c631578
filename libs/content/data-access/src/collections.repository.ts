import { Db } from 'mongodb';
import type { CollectionRecord } from '@bindery/content/domain';
import { ContentItemsRepository } from './content-items.repository';
import { COLLECTIONS } from './indexes';

export class CollectionsRepository extends ContentItemsRepository<CollectionRecord> {
  constructor(db: Db, eventsRecorded?: () => void) {
    super(db, COLLECTIONS.collections, 'collection', eventsRecorded);
  }
}
