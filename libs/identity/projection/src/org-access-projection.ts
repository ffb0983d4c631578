import { ApplyContext, ConsumerLiveness, EventEnvelope, EventHandlers, eventHandlers, on } from '@bindery/platform/events';
import { Db, IndexPlan, sessionOf } from '@bindery/platform/mongo';
import { freshReadsRequired, noteTrailingRead, TrailingCache } from '@bindery/platform/grpc';
import { IdentityEvents as E } from '@bindery/identity/client';
import type { OrgAccess, OrgAccessSource } from './org-access-source';

interface AccessDoc {
  _id: string;
  organizationId: string;
  userId: string;
  role: string | null;
  member: boolean;
  /** version of the event that last set role/member */
  v: string;
  teams: Record<string, { in: boolean; v: string }>;
}

const versionOf = (e: EventEnvelope) => `${e.time}|${e.id}`;

const teamsOf = (doc: AccessDoc) =>
  Object.entries(doc.teams ?? {})
    .filter(([, t]) => t.in)
    .map(([id]) => id)
    .sort();

/** The projection's indexes, for a service's index plan (built before its database is open). */
export function orgAccessIndexes(collection = 'identity_org_access'): IndexPlan {
  return { [collection]: [{ key: { organizationId: 1, member: 1, userId: 1 }, name: 'by_org_member' }] };
}

/**
 * A service's own copy of "user U's role and teams in organization O", kept from identity's events,
 * so it can authorize without calling identity. Events may arrive twice or out of order (member and
 * team events travel under different keys): each fact carries the version of the event that set
 * it, and an older event never overwrites a newer fact.
 *
 * The copy decides only what it can prove: while its consumer is not current (broker down, group
 * rebalancing, a backlog being read) every question goes to identity, and so does every "not a
 * member" it would answer (the member may have been added a moment ago), and every question of a
 * call that is confirming a denial (see fresh-reads in platform/grpc). Current means: every
 * partition the consumer holds is applied up to the end offset the broker gives when asked (at most
 * once per 30 ms, answered within 150 ms or not proven; ConsumerLiveness). What identity
 * acknowledged therefore holds on the caller's next request, and a revoked right ends with the
 * event (about 20 ms) or, with the broker down, at once (the proof fails, identity is asked).
 *
 * `cacheMs`: how long a decision of accessOf is remembered in memory (TrailingCache: bypassed by
 * fresh reads, forgotten when this replica applies an event, so another replica of the service may
 * keep a revoked right that long after the event); 0 remembers nothing.
 */
export function createOrgAccessProjection(db: Db, options: { source: OrgAccessSource; collection?: string; liveness?: ConsumerLiveness; cacheMs?: number }) {
  const collection = options.collection ?? 'identity_org_access';
  const col = db.collection<AccessDoc>(collection);
  const { source } = options;
  const liveness = options.liveness ?? new ConsumerLiveness();
  const decisions = new TrailingCache<OrgAccess | undefined>({ maxAgeMs: options.cacheMs ?? 0 });

  /** What the events applied so far say, proven current or not. */
  async function projectedAccessOf(organizationId: string, userId: string): Promise<OrgAccess | undefined> {
    const doc = await col.findOne({ _id: `${organizationId}:${userId}` });
    if (!doc || !doc.member) return undefined;
    return { role: doc.role, teams: teamsOf(doc) };
  }

  /**
   * Applies `set` to the user's document unless a newer event already set that fact, in the
   * consumer's transaction. The document is made to exist first and then updated conditionally: a
   * conditional upsert that misses a newer document fails with a duplicate key, which would abort
   * the whole transaction.
   */
  async function apply(orgId: string, userId: string, versionField: string, v: string, set: Record<string, unknown>, ctx: ApplyContext) {
    const _id = `${orgId}:${userId}`;
    const session = sessionOf(ctx);
    await col.updateOne({ _id }, { $setOnInsert: { organizationId: orgId, userId } }, { upsert: true, session });
    await col.updateOne({ _id, $or: [{ [versionField]: { $lt: v } }, { [versionField]: { $exists: false } }] }, { $set: set }, { session });
  }

  const member = (organizationId: string, userId: string, role: string | null, present: boolean, e: EventEnvelope, ctx: ApplyContext) =>
    apply(organizationId, userId, 'v', versionOf(e), { role, member: present, v: versionOf(e) }, ctx);

  const teamMember = (d: { organizationId: string; teamId: string; userId: string }, isIn: boolean, e: EventEnvelope, ctx: ApplyContext) =>
    apply(d.organizationId, d.userId, `teams.${d.teamId}.v`, versionOf(e), { [`teams.${d.teamId}`]: { in: isIn, v: versionOf(e) } }, ctx);

  const handlers: EventHandlers = eventHandlers(
    on(E.memberAdded, (d, e, ctx) => member(d.organizationId, d.userId, d.role ?? null, true, e, ctx)),
    on(E.memberRoleChanged, (d, e, ctx) => member(d.organizationId, d.userId, d.role ?? null, true, e, ctx)),
    on(E.memberRemoved, (d, e, ctx) => member(d.organizationId, d.userId, null, false, e, ctx)),
    on(E.teamMemberAdded, (d, e, ctx) => teamMember(d, true, e, ctx)),
    on(E.teamMemberUpdated, (d, e, ctx) => teamMember(d, true, e, ctx)),
    on(E.teamMemberRemoved, (d, e, ctx) => teamMember(d, false, e, ctx)),
    on(E.teamDeleted, (d, e, ctx) =>
      col.updateMany(
        { organizationId: d.organizationId, [`teams.${d.teamId}.in`]: true },
        { $set: { [`teams.${d.teamId}`]: { in: false, v: versionOf(e) } } },
        { session: sessionOf(ctx) },
      ),
    ),
  );

  const indexes = orgAccessIndexes(collection);

  return {
    indexes,
    handlers,
    /** updated by the consumer of identity's events: register it with that consumer */
    liveness,
    /** forgets the remembered decisions: register it as the consumer's `applied`, so an applied event holds at once */
    forget: () => decisions.invalidateAll(),
    projectedAccessOf,
    /** The user's standing in the organization as identity has acknowledged it; undefined: not a member. */
    async accessOf(organizationId: string, userId: string): Promise<OrgAccess | undefined> {
      if (freshReadsRequired() || !(await liveness.isCurrent())) return source.accessOf(organizationId, userId);
      return decisions.get(`${organizationId}:${userId}`, async () => {
        const projected = await projectedAccessOf(organizationId, userId);
        if (!projected) return source.accessOf(organizationId, userId);
        noteTrailingRead();
        return projected;
      });
    },
    /** Every member of the organization with their standing, by user id. */
    async membersOf(organizationId: string): Promise<Array<OrgAccess & { userId: string }>> {
      // A list from the copy: it may miss a member added in the last few milliseconds.
      noteTrailingRead();
      const docs = await col.find({ organizationId, member: true }).sort({ userId: 1 }).toArray();
      return docs.map((doc) => ({
        userId: doc.userId,
        role: doc.role,
        teams: teamsOf(doc),
      }));
    },
  };
}

export type OrgAccessProjection = ReturnType<typeof createOrgAccessProjection>;
