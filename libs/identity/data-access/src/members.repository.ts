import { ClientSession, Db, Filter } from 'mongodb';
import { EventEnvelope, outboxOnInsert, withOutbox } from '@bindery/platform/events';
import { containing, isDuplicateKey } from '@bindery/platform/mongo';
import { MemberRecord, memberId, RoleOrGuest } from '@bindery/identity/domain';
import { Cursor, keysetFilter } from '@bindery/shared/pagination';
import { COLLECTIONS } from './indexes';

const ACTIVE = { removedAt: { $exists: false } } as const;

export interface MemberQuery {
  role?: RoleOrGuest;
  /** lower-case text matched inside display name and e-mail */
  search?: string;
  sort: 'joinedAt' | 'lastSeenAt';
  order: 'asc' | 'desc';
}


export class MembersRepository {
  constructor(private readonly db: Db) {}

  private get col() {
    return this.db.collection<MemberRecord>(COLLECTIONS.members);
  }

  /**
   * Adds a membership with its events; a removed membership is revived. False when the user already
   * is a member (left unchanged).
   */
  async insert(member: Omit<MemberRecord, 'outbox' | 'outboxCount'>, events: EventEnvelope[]): Promise<boolean> {
    try {
      await this.col.insertOne({ ...member, ...outboxOnInsert(events) });
      return true;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    const { _id, ...fields } = member;
    const revived = await this.col.updateOne({ _id, removedAt: { $exists: true } }, withOutbox({ $set: fields, $unset: { removedAt: '', lastSeenAt: '' } }, events));
    return revived.modifiedCount === 1;
  }

  /** Adds a new membership inside a transaction (the organization being created with it). */
  async insertNew(member: Omit<MemberRecord, 'outbox' | 'outboxCount'>, events: EventEnvelope[], session: ClientSession): Promise<void> {
    await this.col.insertOne({ ...member, ...outboxOnInsert(events) }, { session });
  }

  find(organizationId: string, userId: string, session?: ClientSession) {
    return this.col.findOne({ _id: memberId(organizationId, userId), ...ACTIVE }, { projection: { outbox: 0 }, session });
  }

  /** The current memberships of these users in the organization, by user id (one query). */
  async findMany(organizationId: string, userIds: string[]): Promise<Map<string, MemberRecord>> {
    if (!userIds.length) return new Map();
    const docs = await this.col.find({ _id: { $in: userIds.map((u) => memberId(organizationId, u)) }, ...ACTIVE }, { projection: { outbox: 0 } }).toArray();
    return new Map(docs.map((d) => [d.userId, d]));
  }

  /** The user's memberships ordered by organization id, after `cursor`; `limit + 1` rows. */
  listForUser(userId: string, cursor: Cursor | undefined, limit: number) {
    return this.col
      .find({ userId, ...ACTIVE, ...keysetFilter(cursor, '_id') }, { projection: { outbox: 0 } })
      .sort({ _id: 1 })
      .limit(limit + 1)
      .toArray();
  }

  countForUser(userId: string) {
    return this.col.countDocuments({ userId, ...ACTIVE });
  }

  private filterOf(organizationId: string, q: MemberQuery): Filter<MemberRecord> {
    const filter: Filter<MemberRecord> = { organizationId, ...ACTIVE };
    if (q.role !== undefined) filter.role = q.role;
    if (q.search) filter.searchText = containing(q.search.toLowerCase());
    // Sorting by last activity lists only members seen at least once.
    if (q.sort === 'lastSeenAt') filter.lastSeenAt = { $exists: true };
    return filter;
  }

  /** One page of an organization's members in (sort, _id) order; `limit + 1` rows, and the whole count. */
  async listForOrganization(organizationId: string, q: MemberQuery, cursor: Cursor | undefined, limit: number) {
    const filter = this.filterOf(organizationId, q);
    const dir = q.order === 'asc' ? 1 : -1;
    const [rows, count] = await Promise.all([
      this.col
        .find({ $and: [filter, keysetFilter(cursor, q.sort, dir)] }, { projection: { outbox: 0 } })
        .sort({ [q.sort]: dir, _id: dir })
        .limit(limit + 1)
        .toArray(),
      this.col.countDocuments(filter),
    ]);
    return { rows, count };
  }

  countAdmins(organizationId: string, session?: ClientSession) {
    return this.col.countDocuments({ organizationId, role: 'admin', ...ACTIVE }, { session });
  }

  /** Organization ids among `organizationIds` where the user is a member. */
  async memberOf(userId: string, organizationIds: string[]): Promise<Map<string, MemberRecord>> {
    const docs = await this.col
      .find({ _id: { $in: organizationIds.map((o) => memberId(o, userId)) }, ...ACTIVE }, { projection: { outbox: 0 } })
      .toArray();
    return new Map(docs.map((d) => [d.organizationId, d]));
  }

  async touch(organizationId: string, userId: string, at: string): Promise<boolean> {
    const r = await this.col.updateOne({ _id: memberId(organizationId, userId), ...ACTIVE }, { $set: { lastSeenAt: at } });
    return r.matchedCount === 1;
  }

  /** Sets fields of an active membership with its events; the updated record, or null if absent. */
  async update(
    organizationId: string,
    userId: string,
    set: Partial<Pick<MemberRecord, 'role' | 'sso' | 'removedAt'>>,
    events: EventEnvelope[],
    session?: ClientSession,
  ): Promise<MemberRecord | null> {
    const r = await this.col.updateOne({ _id: memberId(organizationId, userId), ...ACTIVE }, withOutbox({ $set: set }, events), { session });
    if (r.matchedCount !== 1) return null;
    return this.col.findOne({ _id: memberId(organizationId, userId) }, { projection: { outbox: 0 }, session });
  }
}
