import type { EventEnvelope, EventHandlers } from '@bindery/platform/events';
import { Db, IndexPlan, isDuplicateKey } from '@bindery/platform/mongo';
import { identityEventsV1 as ev } from '@bindery/shared/contracts';

/**
 * A service's own copy of "user U's role and teams in organization O", kept from identity's events,
 * so it can authorize without calling identity. Events may arrive twice or out of order (member and
 * team events travel under different keys): each fact carries the version of the event that set
 * it, and an older event never overwrites a newer fact.
 */
export interface OrgAccess {
  /** null: a guest */
  role: string | null;
  teams: string[];
}

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

export function createOrgAccessProjection(db: Db, collection = 'identity_org_access') {
  const col = db.collection<AccessDoc>(collection);

  /** Applies `set` to the user's document unless a newer event already set that fact. */
  async function apply(orgId: string, userId: string, versionField: string, v: string, set: Record<string, unknown>) {
    const _id = `${orgId}:${userId}`;
    const filter = { _id, $or: [{ [versionField]: { $lt: v } }, { [versionField]: { $exists: false } }] };
    try {
      await col.updateOne(filter, { $set: set, $setOnInsert: { organizationId: orgId, userId } }, { upsert: true });
    } catch (err) {
      // The document exists with a newer version: the filter missed and the upsert collided. Stale event.
      if (!isDuplicateKey(err)) throw err;
    }
  }

  const member = (role: string | null, present: boolean) => async (e: EventEnvelope) => {
    const d = e.data as { organizationId: string; userId: string };
    await apply(d.organizationId, d.userId, 'v', versionOf(e), { role, member: present, v: versionOf(e) });
  };

  const handlers: EventHandlers = {
    'identity.member.added': (e) => {
      const d = ev.MemberAdded.fromJSON(e.data);
      return member(d.role ?? null, true)(e);
    },
    'identity.member.role_changed': (e) => {
      const d = ev.MemberRoleChanged.fromJSON(e.data);
      return member(d.role ?? null, true)(e);
    },
    'identity.member.removed': (e) => member(null, false)(e),
    'identity.team_member.added': (e) => teamMember(e, true),
    'identity.team_member.updated': (e) => teamMember(e, true),
    'identity.team_member.removed': (e) => teamMember(e, false),
    'identity.team.deleted': async (e) => {
      const d = ev.TeamDeleted.fromJSON(e.data);
      await col.updateMany({ organizationId: d.organizationId, [`teams.${d.teamId}.in`]: true }, { $set: { [`teams.${d.teamId}`]: { in: false, v: versionOf(e) } } });
    },
  };

  async function teamMember(e: EventEnvelope, isIn: boolean) {
    const d = ev.TeamMemberChanged.fromJSON(e.data);
    await apply(d.organizationId, d.userId, `teams.${d.teamId}.v`, versionOf(e), { [`teams.${d.teamId}`]: { in: isIn, v: versionOf(e) } });
  }

  const indexes: IndexPlan = { [collection]: [{ key: { organizationId: 1 }, name: 'by_org' }] };

  return {
    indexes,
    handlers,
    /** The user's standing in the organization as far as this service knows; undefined: not a member. */
    async accessOf(organizationId: string, userId: string): Promise<OrgAccess | undefined> {
      const doc = await col.findOne({ _id: `${organizationId}:${userId}` });
      if (!doc || !doc.member) return undefined;
      return { role: doc.role, teams: Object.entries(doc.teams ?? {}).filter(([, t]) => t.in).map(([id]) => id).sort() };
    },
  };
}

export type OrgAccessProjection = ReturnType<typeof createOrgAccessProjection>;
