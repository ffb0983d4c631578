import { ClientSession, Db, Filter } from 'mongodb';
import { EventEnvelope, OutboxFields, outboxOnInsert, withOutbox } from '@bindery/platform/events';
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

/**
 * Counting members visits every one of them (on the `by_org_active` index, without reading the
 * documents), so a list whose count is taken on every request gets slower as the organization
 * grows while its pages, keyset-paginated, do not. Lists with fewer members than this are counted
 * exactly on every request, at a bounded cost; larger ones are answered from a count kept in memory
 * (see `countMembers`).
 */
const EXACT_COUNT_BELOW = 2000;
/** How old a large list's count may be before a request has it taken again (in the background). */
const LARGE_COUNT_MAX_AGE_MS = 30_000;
/** Large counts kept (one per organization, role filter and sort); the least recently taken go first. */
const LARGE_COUNTS_KEPT = 10_000;

interface LargeCount {
  count: number;
  takenAt: number;
  refreshing?: Promise<unknown>;
}

export class MembersRepository {
  /** Counts of large member lists, by organization, role filter and sort (per process: each replica keeps its own). */
  private readonly largeCounts = new Map<string, LargeCount>();
  /** Counts being taken for the first time, so that concurrent requests share one. */
  private readonly firstCounts = new Map<string, Promise<number>>();

  constructor(private readonly db: Db) {}

  private get col() {
    return this.db.collection<MemberRecord & OutboxFields>(COLLECTIONS.members);
  }

  /**
   * Adds a membership with its events; a removed membership is revived. False when the user already
   * is a member (left unchanged). Inside a transaction (`session`) the membership is looked up
   * first: there a duplicate-key error would abort the whole transaction.
   */
  async insert(member: Omit<MemberRecord, 'outbox' | 'outboxCount'>, events: EventEnvelope[], session?: ClientSession): Promise<boolean> {
    if (!session || !(await this.col.findOne({ _id: member._id }, { session, projection: { _id: 1 } }))) {
      try {
        await this.col.insertOne({ ...member, ...outboxOnInsert(events) }, { session });
        return true;
      } catch (err) {
        if (session || !isDuplicateKey(err)) throw err;
      }
    }
    const { _id, ...fields } = member;
    const revived = await this.col.updateOne({ _id, removedAt: { $exists: true } }, withOutbox({ $set: fields, $unset: { removedAt: '', lastSeenAt: '' } }, events), { session });
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
    // `removedAt` is either a time or absent, never null, so `null` (null or absent) selects the
    // same members as ACTIVE; written this way the by_org_active index answers it, and counts it,
    // without reading the documents. (The driver's types have no null for an optional field.)
    const filter = { organizationId, removedAt: null } as unknown as Filter<MemberRecord>;
    if (q.role !== undefined) filter.role = q.role;
    if (q.search) filter.searchText = containing(q.search.toLowerCase());
    // Sorting by last activity lists only members seen at least once. lastSeenAt is a time when
    // present; asked by type, the index bounds leave out the members never seen ($exists would
    // visit each of them, in the list and in its count).
    if (q.sort === 'lastSeenAt') filter.lastSeenAt = { $type: 'string' };
    return filter;
  }

  /**
   * One page of an organization's members in (sort, _id) order; `limit + 1` rows, and the count of
   * the whole list: exact below EXACT_COUNT_BELOW members, otherwise as of at most
   * LARGE_COUNT_MAX_AGE_MS ago (`countMembers`). A first page that holds the whole list is its own
   * count (no count query); a list read further than its first page is counted alongside the page.
   */
  async listForOrganization(organizationId: string, q: MemberQuery, cursor: Cursor | undefined, limit: number) {
    const filter = this.filterOf(organizationId, q);
    const dir = q.order === 'asc' ? 1 : -1;
    const key = q.search ? undefined : `${organizationId}|${q.role === undefined ? '*' : String(q.role)}|${q.sort}`;
    const find = () =>
      this.col
        .find({ $and: [filter, keysetFilter(cursor, q.sort, dir)] }, { projection: { outbox: 0 } })
        .sort({ [q.sort]: dir, _id: dir })
        .limit(limit + 1)
        .toArray();
    if (cursor) {
      const [rows, count] = await Promise.all([find(), this.countMembers(filter, key)]);
      return { rows, count };
    }
    const rows = await find();
    return { rows, count: rows.length <= limit ? rows.length : await this.countMembers(filter, key) };
  }

  /**
   * How many members `filter` selects. A list known to be large gets its kept count, taken again in
   * the background once older than LARGE_COUNT_MAX_AGE_MS, so no request waits for a count of a
   * large list but the first; any other list is counted up to EXACT_COUNT_BELOW, and only when it
   * reaches that is it counted in full and kept. Without `key` (searches, which read every member
   * of the organization anyway and whose texts are too many to keep) the count is always exact.
   */
  private async countMembers(filter: Filter<MemberRecord>, key: string | undefined): Promise<number> {
    if (key === undefined) return this.col.countDocuments(filter);
    const known = this.largeCounts.get(key);
    if (known) {
      if (!known.refreshing && Date.now() - known.takenAt >= LARGE_COUNT_MAX_AGE_MS) {
        // On failure the old count stays and the next request tries again.
        known.refreshing = this.takeLargeCount(key, filter).catch(() => (known.refreshing = undefined));
      }
      return known.count;
    }
    const bounded = await this.col.countDocuments(filter, { limit: EXACT_COUNT_BELOW });
    if (bounded < EXACT_COUNT_BELOW) return bounded;
    let first = this.firstCounts.get(key);
    if (!first) {
      first = this.takeLargeCount(key, filter).finally(() => this.firstCounts.delete(key));
      this.firstCounts.set(key, first);
    }
    return first;
  }

  /** Counts in full and keeps the count if the list is (still) large; one that shrank is counted exactly again. */
  private async takeLargeCount(key: string, filter: Filter<MemberRecord>): Promise<number> {
    const count = await this.col.countDocuments(filter);
    this.largeCounts.delete(key); // re-inserted last: the Map's order is the order counts were taken
    if (count >= EXACT_COUNT_BELOW) {
      this.largeCounts.set(key, { count, takenAt: Date.now() });
      if (this.largeCounts.size > LARGE_COUNTS_KEPT) this.largeCounts.delete(this.largeCounts.keys().next().value as string);
    }
    return count;
  }

  countAdmins(organizationId: string, session?: ClientSession) {
    return this.col.countDocuments({ organizationId, role: 'admin', ...ACTIVE }, { session });
  }

  /** Organization ids among `organizationIds` where the user is a member. */
  async memberOf(userId: string, organizationIds: string[]): Promise<Map<string, MemberRecord>> {
    const docs = await this.col.find({ _id: { $in: organizationIds.map((o) => memberId(o, userId)) }, ...ACTIVE }, { projection: { outbox: 0 } }).toArray();
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
