import { Db } from 'mongodb';
import type { SpaceRecord } from '@bindery/content/domain';
import { ContentItemsRepository } from './content-items.repository';
import { COLLECTIONS } from './indexes';

export class SpacesRepository extends ContentItemsRepository<SpaceRecord> {
  constructor(db: Db, eventsRecorded?: () => void) {
    super(db, COLLECTIONS.spaces, 'space', eventsRecorded);
  }
}
