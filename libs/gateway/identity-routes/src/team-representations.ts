import { identityTeamsV1 as pb } from '@bindery/shared/contracts';
import { memberJson } from './member-routes';
import { Urls } from './representations';

/** The official OrganizationTeam. */
export function teamJson(t: pb.Team) {
  return {
    object: 'team',
    id: t.id,
    title: t.title,
    members: t.members,
    spaces: t.spaces,
    createdAt: t.createdAt,
    permissions: { admin: t.permissions?.admin ?? false, view: t.permissions?.view ?? false },
  };
}

/** The official OrganizationTeamMember: the organization member, their team role, and what the caller may do. */
export function teamMemberJson(e: pb.TeamMemberEntry, urls: Urls) {
  return {
    organization: memberJson(e.organization!, urls),
    team: { role: e.role },
    permissions: { view: e.view },
  };
}

/** An item of a member's teams: the team and the member's role in it. */
export function memberTeamJson(e: pb.MemberTeamEntry) {
  return { team: teamJson(e.team!), member: { role: e.role } };
}
