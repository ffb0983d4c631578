import { Db } from 'mongodb';
import { conflict } from '@bindery/platform/errors';
import { EventEnvelope, outboxOnInsert } from '@bindery/platform/events';
import { isDuplicateKey } from '@bindery/platform/mongo';
import { UserRecord } from '@bindery/identity/domain';
import { newId, nowIso } from '@bindery/shared/ids';
import { COLLECTIONS } from './indexes';

export class UsersRepository {
  constructor(private readonly db: Db) {}

  private get col() {
    return this.db.collection<UserRecord>(COLLECTIONS.users);
  }

  /** Inserts a user with its events; a taken e-mail address is a conflict. */
  async insert(user: Omit<UserRecord, 'outbox' | 'outboxCount'>, events: EventEnvelope[]): Promise<UserRecord> {
    const doc: UserRecord = { ...user, ...outboxOnInsert(events) };
    try {
      await this.col.insertOne(doc);
    } catch (err) {
      if (isDuplicateKey(err)) throw conflict('A user with this e-mail address already exists.');
      throw err;
    }
    return doc;
  }

  findById(id: string) {
    return this.col.findOne({ _id: id }, { projection: { outbox: 0 } });
  }

  async findManyByIds(ids: string[]): Promise<Map<string, UserRecord>> {
    const docs = await this.col.find({ _id: { $in: ids } }, { projection: { outbox: 0 } }).toArray();
    return new Map(docs.map((d) => [d._id, d]));
  }

  findByEmail(email: string) {
    return this.col.findOne({ email }, { projection: { outbox: 0 } });
  }

  findManyByEmails(emails: string[]) {
    return this.col.find({ email: { $in: emails } }, { projection: { outbox: 0 } }).toArray();
  }

  /** The instance administrator from configuration: created once, kept an administrator. */
  async ensureInstanceAdmin(email: string, displayName: string, events: (userId: string) => EventEnvelope[]): Promise<UserRecord> {
    const existing = await this.findByEmail(email);
    if (existing) {
      if (!existing.isInstanceAdmin) await this.col.updateOne({ _id: existing._id }, { $set: { isInstanceAdmin: true } });
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
