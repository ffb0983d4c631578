import { ClientSession, Db } from 'mongodb';
import { Repository } from '@bindery/platform/mongo';
import { COLLECTIONS } from './indexes';

/** A revision of a space's content (pages and files arrive with the content model). */
export interface RevisionRecord {
  _id: string;
  spaceId: string;
  parents: string[];
  type: string;
  createdAt: string;
}

export class RevisionsRepository extends Repository<RevisionRecord> {
  constructor(db: Db) {
    super(db, COLLECTIONS.revisions);
  }

  insert(revision: RevisionRecord, session?: ClientSession) {
    return this.insertRecord(revision, [], session);
  }

  removeOfSpace(spaceId: string) {
    return this.hardDelete({ spaceId });
  }
}
