import { Db } from 'mongodb';
import { EventEnvelope, outboxOnInsert } from '@bindery/platform/events';
import { isDuplicateKey } from '@bindery/platform/mongo';
import { MemberRecord, memberId } from '@bindery/identity/domain';
import { Cursor, keysetFilter } from '@bindery/shared/pagination';
import { COLLECTIONS } from './indexes';

export class MembersRepository {
  constructor(private readonly db: Db) {}

  private get col() {
    return this.db.collection<MemberRecord>(COLLECTIONS.members);
  }

  /** Adds a membership with its events; false when the user already is a member (unchanged). */
  async insert(member: Omit<MemberRecord, 'outbox' | 'outboxCount'>, events: EventEnvelope[]): Promise<boolean> {
    try {
      await this.col.insertOne({ ...member, ...outboxOnInsert(events) });
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }

  find(organizationId: string, userId: string) {
    return this.col.findOne({ _id: memberId(organizationId, userId) }, { projection: { outbox: 0 } });
  }

  /** The user's memberships ordered by organization id, after `cursor`; `limit + 1` rows. */
  listForUser(userId: string, cursor: Cursor | undefined, limit: number) {
    return this.col
      .find({ userId, ...keysetFilter(cursor, '_id') }, { projection: { outbox: 0 } })
      .sort({ _id: 1 })
      .limit(limit + 1)
      .toArray();
  }

  countForUser(userId: string) {
    return this.col.countDocuments({ userId });
  }

  /** Organization ids among `organizationIds` where the user is a member. */
  async memberOf(userId: string, organizationIds: string[]): Promise<Map<string, MemberRecord>> {
    const docs = await this.col
      .find({ _id: { $in: organizationIds.map((o) => memberId(o, userId)) } }, { projection: { outbox: 0 } })
      .toArray();
    return new Map(docs.map((d) => [d.organizationId, d]));
  }

  async touch(organizationId: string, userId: string, at: string): Promise<boolean> {
    const r = await this.col.updateOne({ _id: memberId(organizationId, userId) }, { $set: { lastSeenAt: at } });
    return r.matchedCount === 1;
  }
}
