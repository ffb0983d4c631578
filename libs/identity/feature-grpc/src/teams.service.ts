import { notFound } from '@bindery/platform/errors';
import { Caller } from '@bindery/platform/grpc';
import {
  assertCanEditTeams,
  assertCanListTeams,
  assertCanListTeamsOf,
  assertCanViewTeam,
  Standing,
  TeamPermissions,
  teamPermissions,
  TeamRecord,
  TeamRole,
  validTeamTitle,
} from '@bindery/identity/domain';
import { newId, nowIso } from '@bindery/shared/ids';
import { decodeCursor, Page, PageRequest, resolveLimit, toPage } from '@bindery/shared/pagination';
import { IdentityDeps } from './identity-deps';
import { loadVisible } from './organizations.service';
import { teamEvents } from './team-events';
import { assertOrganizationMembers, loadTeam, roleInTeam } from './team-access';

export interface TeamView {
  team: TeamRecord;
  /** current members, counted when read */
  members: number;
  permissions: TeamPermissions;
}

async function viewsOf(deps: IdentityDeps, organizationId: string, standing: Standing, callerRoles: Map<string, TeamRole>, teams: TeamRecord[]): Promise<TeamView[]> {
  const counts = await deps.teams.memberCounts(
    organizationId,
    teams.map((t) => t._id),
  );
  return teams.map((team) => ({ team, members: counts.get(team._id) ?? 0, permissions: teamPermissions(standing, callerRoles.get(team._id)) }));
}

const cursorOf = (t: TeamRecord) => ({ k: t.titleLower, id: t._id });

/**
 * The organization's teams in title order (non-guest members). `owner` keeps the teams that member
 * can manage, by the same policy that lets them: all of them for an organization admin, the teams
 * they own otherwise, none for someone who is not a member.
 */
export async function listTeams(deps: IdentityDeps, caller: Caller, organizationId: string, query: { page: PageRequest; owner?: string; title?: string }): Promise<Page<TeamView>> {
  const { standing } = await loadVisible(deps, caller, organizationId);
  assertCanListTeams(standing);
  const limit = resolveLimit(query.page.limit);
  const cursor = decodeCursor(query.page.page);
  let ids: string[] | undefined;
  if (query.owner !== undefined) {
    const owner = await deps.members.find(organizationId, query.owner);
    if (!owner) return { items: [], count: 0 };
    if (!teamPermissions({ role: owner.role, ownsTeam: false }, undefined).admin) {
      ids = [...(await deps.teams.rolesOf(organizationId, query.owner, 'owner')).keys()];
    }
  }
  const [{ rows, count }, callerRoles] = await Promise.all([
    deps.teams.list(organizationId, { title: query.title, ids }, cursor, limit),
    deps.teams.rolesOf(organizationId, caller.userId),
  ]);
  const page = toPage(rows, limit, count, cursorOf, (t) => t);
  return { ...page, items: await viewsOf(deps, organizationId, standing, callerRoles, page.items) };
}

/**
 * Creates a team (organization admins), with organization members in it. The memberships are written
 * before the team: until the team exists nothing shows them, so a crash in between leaves nothing
 * visible half-done. Events: team_member.added per member, team.created.
 */
export async function createTeam(deps: IdentityDeps, caller: Caller, organizationId: string, input: { title: string; members: string[] }): Promise<TeamView> {
  const { standing } = await loadVisible(deps, caller, organizationId);
  assertCanEditTeams(standing);
  const title = validTeamTitle(input.title);
  const userIds = [...new Set(input.members)];
  await assertOrganizationMembers(deps, organizationId, 'members', userIds);
  const id = newId();
  const now = nowIso();
  await Promise.all(
    userIds.map((userId) =>
      deps.teams.addMember({ organizationId, teamId: id, userId, role: 'member', addedAt: now }, [teamEvents.memberAdded(organizationId, id, userId, 'member')]),
    ),
  );
  const team = await deps.teams.insert({ _id: id, organizationId, title, titleLower: title.toLowerCase(), createdAt: now, createdBy: caller.userId, updatedAt: now }, [
    teamEvents.teamCreated(organizationId, id, title),
  ]);
  deps.eventsRecorded();
  return { team, members: userIds.length, permissions: teamPermissions(standing, undefined) };
}

/** One team, for those who may see it. */
export async function getTeam(deps: IdentityDeps, caller: Caller, organizationId: string, teamId: string): Promise<TeamView> {
  const { standing } = await loadVisible(deps, caller, organizationId);
  const team = await loadTeam(deps, organizationId, teamId);
  const role = await roleInTeam(deps, organizationId, teamId, caller.userId);
  assertCanViewTeam(standing, role);
  const [view] = await viewsOf(deps, organizationId, standing, new Map(role ? [[teamId, role]] : []), [team]);
  return view;
}

/** Renames a team (organization admins). Event: team.updated, when the title changes. */
export async function updateTeam(deps: IdentityDeps, caller: Caller, organizationId: string, teamId: string, input: { title: string }): Promise<TeamView> {
  const { standing } = await loadVisible(deps, caller, organizationId);
  assertCanEditTeams(standing);
  const title = validTeamTitle(input.title);
  let team = await loadTeam(deps, organizationId, teamId);
  if (title !== team.title) {
    const renamed = await deps.teams.rename(organizationId, teamId, title, nowIso(), [teamEvents.teamUpdated(organizationId, teamId, title)]);
    if (!renamed) throw notFound('Team');
    deps.eventsRecorded();
    team = renamed;
  }
  const role = await roleInTeam(deps, organizationId, teamId, caller.userId);
  const [view] = await viewsOf(deps, organizationId, standing, new Map(role ? [[teamId, role]] : []), [team]);
  return view;
}

/**
 * Deletes a team (organization admins): hidden first (team.deleted), then each membership retired
 * (team_member.removed), so consumers keeping memberships need no special case. False when
 * there was no such team (HTTP 204).
 */
export async function deleteTeam(deps: IdentityDeps, caller: Caller, organizationId: string, teamId: string): Promise<boolean> {
  const { standing } = await loadVisible(deps, caller, organizationId);
  assertCanEditTeams(standing);
  const now = nowIso();
  if (!(await deps.teams.markDeleted(organizationId, teamId, now, [teamEvents.teamDeleted(organizationId, teamId)]))) return false;
  deps.eventsRecorded();
  const members = await deps.teams.membersOf(organizationId, teamId);
  await Promise.all(members.map((m) => deps.teams.removeMember(organizationId, teamId, m.userId, now, [teamEvents.memberRemoved(organizationId, teamId, m.userId)])));
  if (members.length) deps.eventsRecorded();
  return true;
}

export interface MemberTeamView extends TeamView {
  /** the member's role in the team */
  role: TeamRole;
}

/** The teams one member belongs to, in title order (whoever may list teams, and the member themselves). */
export async function listTeamsOfMember(
  deps: IdentityDeps,
  caller: Caller,
  organizationId: string,
  userId: string,
  query: { page: PageRequest; title?: string },
): Promise<Page<MemberTeamView>> {
  const { standing } = await loadVisible(deps, caller, organizationId);
  assertCanListTeamsOf(standing, caller.userId, userId);
  const limit = resolveLimit(query.page.limit);
  const cursor = decodeCursor(query.page.page);
  if (!(await deps.members.find(organizationId, userId))) throw notFound('Member');
  const roles = await deps.teams.rolesOf(organizationId, userId);
  const [{ rows, count }, callerRoles] = await Promise.all([
    deps.teams.list(organizationId, { title: query.title, ids: [...roles.keys()] }, cursor, limit),
    userId === caller.userId ? roles : deps.teams.rolesOf(organizationId, caller.userId),
  ]);
  const page = toPage(rows, limit, count, cursorOf, (t) => t);
  const views = await viewsOf(deps, organizationId, standing, callerRoles, page.items);
  return { ...page, items: views.map((v) => ({ ...v, role: roles.get(v.team._id) ?? 'member' })) };
}
