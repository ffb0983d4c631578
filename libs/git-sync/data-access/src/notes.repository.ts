import { ClientSession, Db } from 'mongodb';
import type { EventEnvelope } from '@bindery/platform/events';
import { Repository } from '@bindery/platform/mongo';
import type { NoteRecord } from '@bindery/git-sync/domain';
import { COLLECTIONS } from './indexes';

/** Notes; a note is written once with its events (the outbox relays them) and never changed. */
export class NotesRepository extends Repository<NoteRecord> {
  constructor(db: Db, eventsRecorded?: () => void) {
    super(db, COLLECTIONS.notes, eventsRecorded);
  }

  insert(record: NoteRecord, events: EventEnvelope[], session?: ClientSession) {
    return this.insertRecord(record, events, session);
  }

  get(id: string) {
    return this.findOne({ _id: id });
  }

  /** The notes of a subject, oldest first. */
  ofSubject(subject: string, limit = 100) {
    return this.findMany({ subject }, { sort: { createdAt: 1, _id: 1 }, limit });
  }

  countOf(subject: string) {
    return this.countWhere({ subject });
  }
}
