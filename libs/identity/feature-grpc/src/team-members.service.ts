import type { ClientSession } from '@bindery/platform/mongo';
import { invalid } from '@bindery/platform/errors';
import { Caller } from '@bindery/platform/grpc';
import { assertCanManageTeamMembers, assertCanViewTeam, isTeamRole, MemberRecord, planTeamMembersChange, TeamRole, UserRecord } from '@bindery/identity/domain';
import { nowIso } from '@bindery/shared/ids';
import { decodeCursor, Page, PageRequest, resolveLimit, toPage } from '@bindery/shared/pagination';
import { IdentityDeps } from './identity-deps';
import { loadVisible } from './organizations.service';
import { loadTeam, notMembersError, organizationMembersAmong, resolveUserRefs, roleInTeam } from './team-access';
import { teamEvents } from './team-events';

export interface TeamMemberView {
  member: MemberRecord;
  user: UserRecord;
  /** the member's `teams` count */
  teams: number;
  role: TeamRole;
  /** whether the caller may see this member */
  view: boolean;
}

/** Loads what every team-member use case starts from; 404 for an invisible organization or team. */
async function teamAccess(deps: IdentityDeps, caller: Caller, organizationId: string, teamId: string) {
  const { standing } = await loadVisible(deps, caller, organizationId);
  await loadTeam(deps, organizationId, teamId);
  const callerRole = await roleInTeam(deps, organizationId, teamId, caller.userId);
  return { standing, callerRole };
}

/** A team's members, in user-id order, for those who may see the team. */
export async function listTeamMembers(deps: IdentityDeps, caller: Caller, organizationId: string, teamId: string, page: PageRequest): Promise<Page<TeamMemberView>> {
  const { standing, callerRole } = await teamAccess(deps, caller, organizationId, teamId);
  assertCanViewTeam(standing, callerRole);
  const limit = resolveLimit(page.limit);
  const { rows, count } = await deps.teams.listMembers(organizationId, teamId, decodeCursor(page.page), limit);
  const result = toPage(
    rows,
    limit,
    count,
    (r) => ({ id: r._id }),
    (r) => r,
  );
  const userIds = result.items.map((r) => r.userId);
  const [members, users, teams] = await Promise.all([
    deps.members.findMany(organizationId, userIds),
    deps.users.findManyByIds(userIds),
    deps.teams.countTeamsOfMany(organizationId, userIds),
  ]);
  // A membership whose user just left the organization is skipped until it is retired (see
  // removeTeamMembershipsOf); the cursor follows memberships, so the walk never stalls on one.
  const items = result.items.flatMap((r): TeamMemberView[] => {
    const member = members.get(r.userId);
    const user = users.get(r.userId);
    return member && user ? [{ member, user, teams: teams.get(r.userId) ?? 0, role: r.role, view: true }] : [];
  });
  return { ...result, items };
}

export interface TeamMembersInput {
  /** user ids or e-mail addresses */
  add: string[];
  remove: string[];
  /** user id or e-mail address → role */
  memberships: Record<string, string>;
}

const MAX_USERS_PER_UPDATE = 1000;

/**
 * Adds, removes and sets roles of a team's members in one request (organization admins and the
 * team's owners). A user both added and removed ends removed. Those added or given a role must be
 * members of the organization; those removed must be that or in the team. Everything is checked
 * before anything is written, so a refused request changes nothing. Events: team_member.added /
 * updated / removed, one per change.
 */
export async function updateTeamMembers(deps: IdentityDeps, caller: Caller, organizationId: string, teamId: string, input: TeamMembersInput): Promise<void> {
  const { standing, callerRole } = await teamAccess(deps, caller, organizationId, teamId);
  assertCanManageTeamMembers(standing, callerRole);
  const roleEntries = Object.entries(input.memberships);
  if (input.add.length + input.remove.length + roleEntries.length > MAX_USERS_PER_UPDATE)
    throw invalid(`add, remove and memberships: at most ${MAX_USERS_PER_UPDATE} users per request.`);
  for (const [ref, role] of roleEntries) if (!isTeamRole(role)) throw invalid(`memberships.${ref}.role must be "owner" or "member".`);

  const [adds, removes, roled] = await Promise.all([
    resolveUserRefs(deps, 'add', input.add),
    resolveUserRefs(deps, 'remove', input.remove),
    resolveUserRefs(
      deps,
      'memberships',
      roleEntries.map(([ref]) => ref),
    ),
  ]);
  const removing = new Set(removes.values());
  const everyone = [...new Set([...adds.values(), ...removes.values(), ...roled.values()])];
  const [orgMembers, current] = await Promise.all([organizationMembersAmong(deps, organizationId, everyone), deps.teams.rolesIn(organizationId, teamId, everyone)]);
  // Whoever ends removed needs no check beyond being someone: removal wins.
  const refused = (refs: Map<string, string>, ok: (userId: string) => boolean) => [...refs].filter(([, id]) => !ok(id)).map(([ref]) => ref);
  for (const [field, refs] of [
    ['add', adds],
    ['memberships', roled],
  ] as const) {
    const bad = refused(refs, (id) => removing.has(id) || orgMembers.has(id));
    if (bad.length) throw notMembersError(field, bad);
  }
  const badRemovals = refused(removes, (id) => orgMembers.has(id) || current.has(id));
  if (badRemovals.length) throw notMembersError('remove', badRemovals);

  const roles = new Map(roleEntries.map(([ref, role]) => [roled.get(ref)!, role as TeamRole]));
  const plan = planTeamMembersChange({ add: [...adds.values()], remove: [...removing], roles }, current);
  const now = nowIso();
  await Promise.all([
    ...plan.removed.map((userId) => deps.teams.removeMember(organizationId, teamId, userId, now, [teamEvents.memberRemoved(organizationId, teamId, userId)])),
    ...plan.added.map(({ userId, role }) =>
      deps.teams.addMember({ organizationId, teamId, userId, role, addedAt: now }, [teamEvents.memberAdded(organizationId, teamId, userId, role)]),
    ),
    ...plan.updated.map(({ userId, role, previous }) =>
      deps.teams.changeRole(organizationId, teamId, userId, role, previous, [teamEvents.memberUpdated(organizationId, teamId, userId, role)]),
    ),
  ]);
  if (plan.added.length + plan.updated.length + plan.removed.length) deps.eventsRecorded();
}

/**
 * Adds an organization member to a team, or changes their role (organization admins and the team's
 * owners). Without a role a newcomer joins as "member" and a member keeps theirs.
 */
export async function putTeamMember(deps: IdentityDeps, caller: Caller, organizationId: string, teamId: string, userId: string, role: string | undefined): Promise<void> {
  const { standing, callerRole } = await teamAccess(deps, caller, organizationId, teamId);
  assertCanManageTeamMembers(standing, callerRole);
  if (role !== undefined && !isTeamRole(role)) throw invalid('role must be "owner" or "member".');
  if (!(await deps.members.find(organizationId, userId))) throw notMembersError('userId', [userId]);
  const now = nowIso();
  // Twice at most: a concurrent add or removal between the read and the write is seen on the retry.
  for (let attempt = 0; attempt < 2; attempt++) {
    const current = await roleInTeam(deps, organizationId, teamId, userId);
    let done: boolean;
    if (current === undefined) {
      const r = role ?? 'member';
      done = await deps.teams.addMember({ organizationId, teamId, userId, role: r, addedAt: now }, [teamEvents.memberAdded(organizationId, teamId, userId, r)]);
    } else if (role !== undefined && role !== current) {
      done = await deps.teams.changeRole(organizationId, teamId, userId, role, current, [teamEvents.memberUpdated(organizationId, teamId, userId, role)]);
    } else return;
    if (done) {
      deps.eventsRecorded();
      return;
    }
  }
}

/** Removes a member from a team (organization admins and the team's owners); false when not in it (HTTP 204). */
export async function removeTeamMember(deps: IdentityDeps, caller: Caller, organizationId: string, teamId: string, userId: string): Promise<boolean> {
  // Who may remove comes before what there is: a team that does not exist has no owners, so only
  // organization admins learn that there was nothing to remove (404 stays for invisible organizations).
  const { standing } = await loadVisible(deps, caller, organizationId);
  const team = await deps.teams.find(organizationId, teamId);
  assertCanManageTeamMembers(standing, team ? await roleInTeam(deps, organizationId, teamId, caller.userId) : undefined);
  if (!team || !(await deps.teams.removeMember(organizationId, teamId, userId, nowIso(), [teamEvents.memberRemoved(organizationId, teamId, userId)]))) return false;
  deps.eventsRecorded();
  return true;
}

/**
 * Retires every team membership of a user who left the organization at `leftAt` (handler of
 * identity.member.removed). Idempotent: a retired membership is not matched again, and one added
 * after `leftAt` (the user came back) is left alone. Events: team_member.removed.
 */
export async function removeTeamMembershipsOf(deps: IdentityDeps, organizationId: string, userId: string, leftAt: string, session?: ClientSession): Promise<number> {
  const memberships = await deps.teams.membershipsOf(organizationId, userId, session);
  const now = nowIso();
  // One after the other: the operations of one transaction may not run in parallel.
  let count = 0;
  for (const m of memberships) {
    if (await deps.teams.removeMember(organizationId, m.teamId, userId, now, [teamEvents.memberRemoved(organizationId, m.teamId, userId)], leftAt, session)) count += 1;
  }
  if (count) deps.eventsRecorded();
  return count;
}
