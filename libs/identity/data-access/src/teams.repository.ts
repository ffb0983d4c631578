import { ClientSession, Db, Filter } from 'mongodb';
import { EventEnvelope, OutboxFields, outboxOnInsert, withOutbox } from '@bindery/platform/events';
import { containing, isDuplicateKey } from '@bindery/platform/mongo';
import { TeamMemberRecord, teamMemberId, TeamRecord, TeamRole } from '@bindery/identity/domain';
import { Cursor, keysetFilter } from '@bindery/shared/pagination';
import { COLLECTIONS } from './indexes';

const LIVE = { deletedAt: { $exists: false } } as const;
const ACTIVE = { removedAt: { $exists: false } } as const;
/** A user's memberships in one organization are few; this bounds a read that should never reach it. */
const MAX_MEMBERSHIPS_OF_USER = 10000;

export interface TeamQuery {
  /** part of the title, any case */
  title?: string;
  /** only these teams */
  ids?: string[];
}

/**
 * Teams and team memberships. A membership counts only while its team is live: deleting a team
 * hides it first and then retires its memberships, so a crash in between leaves nothing visible.
 */
export class TeamsRepository {
  constructor(private readonly db: Db) {}

  private get teams() {
    return this.db.collection<TeamRecord & OutboxFields>(COLLECTIONS.teams);
  }

  private get memberships() {
    return this.db.collection<TeamMemberRecord & OutboxFields>(COLLECTIONS.teamMembers);
  }

  async insert(team: TeamRecord, events: EventEnvelope[]): Promise<TeamRecord> {
    await this.teams.insertOne({ ...team, ...outboxOnInsert(events) });
    return team;
  }

  /** A live team of the organization, or null. */
  find(organizationId: string, teamId: string) {
    return this.teams.findOne({ _id: teamId, organizationId, ...LIVE }, { projection: { outbox: 0 } });
  }

  async rename(organizationId: string, teamId: string, title: string, at: string, events: EventEnvelope[]): Promise<TeamRecord | null> {
    const update = withOutbox({ $set: { title, titleLower: title.toLowerCase(), updatedAt: at } }, events);
    return this.teams.findOneAndUpdate({ _id: teamId, organizationId, ...LIVE }, update, { returnDocument: 'after', projection: { outbox: 0 } });
  }

  /** Hides the team with its events; false when it was already gone. */
  async markDeleted(organizationId: string, teamId: string, at: string, events: EventEnvelope[]): Promise<boolean> {
    const r = await this.teams.updateOne({ _id: teamId, organizationId, ...LIVE }, withOutbox({ $set: { deletedAt: at, updatedAt: at } }, events));
    return r.matchedCount === 1;
  }

  private teamFilter(organizationId: string, q: TeamQuery): Filter<TeamRecord> {
    const filter: Filter<TeamRecord> = { organizationId, ...LIVE };
    if (q.title) filter.titleLower = containing(q.title.toLowerCase());
    if (q.ids) filter._id = { $in: q.ids };
    return filter;
  }

  /** One page of live teams in (title, id) order: `limit + 1` rows, and the size of the whole filtered list. */
  async list(organizationId: string, q: TeamQuery, cursor: Cursor | undefined, limit: number) {
    const filter = this.teamFilter(organizationId, q);
    const [rows, count] = await Promise.all([
      this.teams
        .find({ $and: [filter, keysetFilter(cursor, 'titleLower')] }, { projection: { outbox: 0 } })
        .sort({ titleLower: 1, _id: 1 })
        .limit(limit + 1)
        .toArray(),
      this.teams.countDocuments(filter),
    ]);
    return { rows, count };
  }

  /** Ids of the live teams among `teamIds`. */
  async liveTeamIds(organizationId: string, teamIds: string[]): Promise<Set<string>> {
    if (!teamIds.length) return new Set();
    const docs = await this.teams.find({ organizationId, _id: { $in: teamIds }, ...LIVE }, { projection: { _id: 1 } }).toArray();
    return new Set(docs.map((d) => d._id));
  }

  // Memberships

  /**
   * Adds a user to a team with its events, reviving a retired membership. False when the user already
   * is in the team (left unchanged): the unique `_id` decides, never a read before the write.
   */
  async addMember(m: Omit<TeamMemberRecord, '_id' | 'outbox' | 'outboxCount' | 'removedAt'>, events: EventEnvelope[]): Promise<boolean> {
    const _id = teamMemberId(m.organizationId, m.teamId, m.userId);
    try {
      await this.memberships.insertOne({ _id, ...m, ...outboxOnInsert(events) });
      return true;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    const revived = await this.memberships.updateOne(
      { _id, removedAt: { $exists: true } },
      withOutbox({ $set: { role: m.role, addedAt: m.addedAt }, $unset: { removedAt: '' } }, events),
    );
    return revived.matchedCount === 1;
  }

  /** Changes the role of a current member, if it still is `previous`; false otherwise. */
  async changeRole(organizationId: string, teamId: string, userId: string, role: TeamRole, previous: TeamRole, events: EventEnvelope[]): Promise<boolean> {
    const r = await this.memberships.updateOne({ _id: teamMemberId(organizationId, teamId, userId), role: previous, ...ACTIVE }, withOutbox({ $set: { role } }, events));
    return r.matchedCount === 1;
  }

  /**
   * Retires a membership with its events; false when the user was not in the team. With `addedUpTo`,
   * only a membership added at or before that time (one a later re-add made is left alone).
   */
  async removeMember(organizationId: string, teamId: string, userId: string, at: string, events: EventEnvelope[], addedUpTo?: string, session?: ClientSession): Promise<boolean> {
    const filter: Filter<TeamMemberRecord> = { _id: teamMemberId(organizationId, teamId, userId), ...ACTIVE };
    if (addedUpTo) filter.addedAt = { $lte: addedUpTo };
    const r = await this.memberships.updateOne(filter, withOutbox({ $set: { removedAt: at } }, events), { session });
    return r.matchedCount === 1;
  }

  findMember(organizationId: string, teamId: string, userId: string) {
    return this.memberships.findOne({ _id: teamMemberId(organizationId, teamId, userId), ...ACTIVE }, { projection: { outbox: 0 } });
  }

  /** Current roles in a team of the given users. */
  async rolesIn(organizationId: string, teamId: string, userIds: string[]): Promise<Map<string, TeamRole>> {
    if (!userIds.length) return new Map();
    const ids = userIds.map((u) => teamMemberId(organizationId, teamId, u));
    const docs = await this.memberships.find({ _id: { $in: ids }, ...ACTIVE }, { projection: { outbox: 0 } }).toArray();
    return new Map(docs.map((d) => [d.userId, d.role]));
  }

  /** One page of a team's current members in user-id order; `limit + 1` rows, and the whole count. */
  async listMembers(organizationId: string, teamId: string, cursor: Cursor | undefined, limit: number) {
    const filter: Filter<TeamMemberRecord> = { organizationId, teamId, ...ACTIVE };
    const [rows, count] = await Promise.all([
      this.memberships
        .find({ $and: [filter, keysetFilter(cursor, '_id')] }, { projection: { outbox: 0 } })
        .sort({ _id: 1 })
        .limit(limit + 1)
        .toArray(),
      this.memberships.countDocuments(filter),
    ]);
    return { rows, count };
  }

  /** Current members of a team, all of them (for retiring them with the team). */
  membersOf(organizationId: string, teamId: string) {
    return this.memberships.find({ organizationId, teamId, ...ACTIVE }, { projection: { outbox: 0 } }).toArray();
  }

  /** The member counts of teams (absent teams count 0). */
  async memberCounts(organizationId: string, teamIds: string[]): Promise<Map<string, number>> {
    if (!teamIds.length) return new Map();
    const groups = await this.memberships
      .aggregate<{ _id: string; n: number }>([{ $match: { organizationId, teamId: { $in: teamIds }, ...ACTIVE } }, { $group: { _id: '$teamId', n: { $sum: 1 } } }])
      .toArray();
    return new Map(groups.map((g) => [g._id, g.n]));
  }

  /** The user's current memberships in the organization's live teams: team id → role. */
  async rolesOf(organizationId: string, userId: string, role?: TeamRole): Promise<Map<string, TeamRole>> {
    const filter: Filter<TeamMemberRecord> = { organizationId, userId, ...ACTIVE };
    if (role) filter.role = role;
    const docs = await this.memberships
      .find(filter, { projection: { outbox: 0 } })
      .limit(MAX_MEMBERSHIPS_OF_USER)
      .toArray();
    const live = await this.liveTeamIds(
      organizationId,
      docs.map((d) => d.teamId),
    );
    return new Map(docs.filter((d) => live.has(d.teamId)).map((d) => [d.teamId, d.role]));
  }

  /** The user's current memberships in the organization, live team or not (to retire them). */
  membershipsOf(organizationId: string, userId: string, session?: ClientSession) {
    return this.memberships
      .find({ organizationId, userId, ...ACTIVE }, { projection: { outbox: 0 }, session })
      .limit(MAX_MEMBERSHIPS_OF_USER)
      .toArray();
  }

  /** How many live teams of the organization each user is in (a member's `teams`): user id → count. */
  async countTeamsOfMany(organizationId: string, userIds: string[]): Promise<Map<string, number>> {
    const counts = new Map(userIds.map((u) => [u, 0]));
    if (!userIds.length) return counts;
    const docs = await this.memberships
      .find({ organizationId, userId: { $in: userIds }, ...ACTIVE }, { projection: { outbox: 0 } })
      .limit(MAX_MEMBERSHIPS_OF_USER)
      .toArray();
    const live = await this.liveTeamIds(organizationId, [...new Set(docs.map((d) => d.teamId))]);
    for (const d of docs) if (live.has(d.teamId)) counts.set(d.userId, (counts.get(d.userId) ?? 0) + 1);
    return counts;
  }

  /** Whether the user owns at least one live team of the organization (the organization's `ownTeam`). */
  async ownsAnyTeam(organizationId: string, userId: string): Promise<boolean> {
    return (await this.rolesOf(organizationId, userId, 'owner')).size > 0;
  }

  /** `ownsAnyTeam` for several organizations at once: the ids of those where the user owns a live team. */
  async organizationsWhereOwner(userId: string, organizationIds: string[]): Promise<Set<string>> {
    if (!organizationIds.length) return new Set();
    const docs = await this.memberships
      .find({ organizationId: { $in: organizationIds }, userId, role: 'owner', ...ACTIVE }, { projection: { outbox: 0 } })
      .limit(MAX_MEMBERSHIPS_OF_USER)
      .toArray();
    if (!docs.length) return new Set();
    const live = await this.teams.find({ _id: { $in: docs.map((d) => d.teamId) }, ...LIVE }, { projection: { organizationId: 1 } }).toArray();
    return new Set(live.map((t) => t.organizationId));
  }
}
