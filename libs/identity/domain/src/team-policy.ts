import { forbidden } from '@bindery/platform/errors';
import { assertCanView, organizationPermissions, Standing } from './organization-policy';
import { TeamRole } from './teams';

/** The `permissions` object of a team, for a caller. */
export interface TeamPermissions {
  /** may manage the team's members */
  admin: boolean;
  /** may see the team and list its members */
  view: boolean;
}

/**
 * A caller's permissions on one team, from their standing in the organization and their role in the
 * team (undefined: not in it). Organization admins manage every team; a team's owners manage its
 * members (the spec's TeamMemberRole: an owner "can manage team members"), so `admin` is true for
 * them too. Renaming and deleting a team stay with organization admins (`assertCanEditTeam`): the
 * spec gives owners nothing beyond the members. Non-guest members see every team (the organization's
 * `listTeams`); a guest sees the teams they belong to.
 */
export function teamPermissions(standing: Standing | undefined, teamRole: TeamRole | undefined): TeamPermissions {
  const org = organizationPermissions(standing);
  if (!org.view) return { admin: false, view: false };
  const admin = org.admin || teamRole === 'owner';
  return { admin, view: admin || org.listTeams || teamRole !== undefined };
}

/** Listing an organization's teams: non-guest members (404 for non-members, 403 for guests). */
export function assertCanListTeams(standing: Standing | undefined): asserts standing is Standing {
  assertCanView(standing);
  if (!organizationPermissions(standing).listTeams) throw forbidden('Guests cannot list the teams of this organization.');
}

/** Creating, renaming and deleting teams: organization admins. */
export function assertCanEditTeams(standing: Standing | undefined): asserts standing is Standing {
  assertCanView(standing);
  if (!organizationPermissions(standing).admin) throw forbidden('Only organization admins can create, rename or delete teams.');
}

export function assertCanViewTeam(standing: Standing | undefined, teamRole: TeamRole | undefined): asserts standing is Standing {
  assertCanView(standing);
  if (!teamPermissions(standing, teamRole).view) throw forbidden('You cannot see this team.');
}

/** Adding, removing and changing the role of a team's members: organization admins and the team's owners. */
export function assertCanManageTeamMembers(standing: Standing | undefined, teamRole: TeamRole | undefined): asserts standing is Standing {
  assertCanView(standing);
  if (!teamPermissions(standing, teamRole).admin) throw forbidden("Only organization admins and the team's owners can manage its members.");
}

/** Listing a member's teams: whoever may list teams, and the member themselves. */
export function assertCanListTeamsOf(standing: Standing | undefined, callerId: string, userId: string): asserts standing is Standing {
  assertCanView(standing);
  if (callerId !== userId && !organizationPermissions(standing).listTeams) throw forbidden("Guests cannot see other members' teams.");
}
