import { ClientSession, Db } from 'mongodb';
import { conflict } from '@bindery/platform/errors';
import { EventEnvelope } from '@bindery/platform/events';
import { isDuplicateKey, Repository } from '@bindery/platform/mongo';
import { UserRecord } from '@bindery/identity/domain';
import { newId, nowIso } from '@bindery/shared/ids';
import { COLLECTIONS } from './indexes';

export class UsersRepository extends Repository<UserRecord> {
  constructor(db: Db, eventsRecorded?: () => void) {
    super(db, COLLECTIONS.users, eventsRecorded);
  }

  /** Inserts a user with its events; a taken e-mail address is a conflict. */
  async insert(user: UserRecord, events: EventEnvelope[]): Promise<UserRecord> {
    try {
      return await this.insertRecord(user, events);
    } catch (err) {
      if (isDuplicateKey(err)) throw conflict('A user with this e-mail address already exists.');
      throw err;
    }
  }

  findById(id: string, session?: ClientSession) {
    return this.findOne({ _id: id }, { session });
  }

  async findManyByIds(ids: string[]): Promise<Map<string, UserRecord>> {
    const docs = await this.findMany({ _id: { $in: ids } });
    return new Map(docs.map((d) => [d._id, d]));
  }

  findByEmail(email: string) {
    return this.findOne({ email });
  }

  findManyByEmails(emails: string[]) {
    return this.findMany({ email: { $in: emails } });
  }

  /** The instance administrator from configuration: created once, kept an administrator. */
  async ensureInstanceAdmin(email: string, displayName: string, events: (userId: string) => EventEnvelope[]): Promise<UserRecord> {
    const existing = await this.findByEmail(email);
    if (existing) {
      if (!existing.isInstanceAdmin) await this.updateMatched({ _id: existing._id }, { $set: { isInstanceAdmin: true } });
      return { ...existing, isInstanceAdmin: true };
    }
    try {
      const id = newId();
      return await this.insert({ _id: id, email, displayName, isInstanceAdmin: true, createdAt: nowIso() }, events(id));
    } catch (err) {
      // Another replica created it first.
      const raced = await this.findByEmail(email);
      if (raced) return raced;
      throw err;
    }
  }
}
