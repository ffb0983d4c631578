import { IdentityEvents as E } from '@bindery/identity/client';
import { TeamRole } from '@bindery/identity/domain';
import { SOURCE } from './identity-deps';

const membership = (teamId: string, userId: string) => `${teamId}:${userId}`;

/** Events of teams and team memberships, with their subjects. */
export const teamEvents = {
  teamCreated: (organizationId: string, teamId: string, title: string) => E.teamCreated.create(SOURCE, teamId, { organizationId, teamId, title }, organizationId),
  teamUpdated: (organizationId: string, teamId: string, title: string) => E.teamUpdated.create(SOURCE, teamId, { organizationId, teamId, title }, organizationId),
  teamDeleted: (organizationId: string, teamId: string) => E.teamDeleted.create(SOURCE, teamId, { organizationId, teamId }, organizationId),
  memberAdded: (organizationId: string, teamId: string, userId: string, role: TeamRole) =>
    E.teamMemberAdded.create(SOURCE, membership(teamId, userId), { organizationId, teamId, userId, role }, organizationId),
  memberUpdated: (organizationId: string, teamId: string, userId: string, role: TeamRole) =>
    E.teamMemberUpdated.create(SOURCE, membership(teamId, userId), { organizationId, teamId, userId, role }, organizationId),
  memberRemoved: (organizationId: string, teamId: string, userId: string) =>
    E.teamMemberRemoved.create(SOURCE, membership(teamId, userId), { organizationId, teamId, userId }, organizationId),
};
