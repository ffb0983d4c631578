import { newEvent } from '@bindery/platform/events';
import { identityEventsV1 as ev } from '@bindery/shared/contracts';
import { TeamRole } from '@bindery/identity/domain';
import { SOURCE } from './identity-deps';

const json = (data: unknown) => data as object;
const membership = (teamId: string, userId: string) => `${teamId}:${userId}`;

/** Events of teams and team memberships; payloads follow proto/bindery/events/identity/v1. */
export const teamEvents = {
  teamCreated: (organizationId: string, teamId: string, title: string) =>
    newEvent(SOURCE, 'identity.team.created', teamId, json(ev.TeamChanged.toJSON({ organizationId, teamId, title })), organizationId),
  teamUpdated: (organizationId: string, teamId: string, title: string) =>
    newEvent(SOURCE, 'identity.team.updated', teamId, json(ev.TeamChanged.toJSON({ organizationId, teamId, title })), organizationId),
  teamDeleted: (organizationId: string, teamId: string) =>
    newEvent(SOURCE, 'identity.team.deleted', teamId, json(ev.TeamDeleted.toJSON({ organizationId, teamId })), organizationId),
  memberAdded: (organizationId: string, teamId: string, userId: string, role: TeamRole) =>
    newEvent(SOURCE, 'identity.team_member.added', membership(teamId, userId), json(ev.TeamMemberChanged.toJSON({ organizationId, teamId, userId, role })), organizationId),
  memberUpdated: (organizationId: string, teamId: string, userId: string, role: TeamRole) =>
    newEvent(SOURCE, 'identity.team_member.updated', membership(teamId, userId), json(ev.TeamMemberChanged.toJSON({ organizationId, teamId, userId, role })), organizationId),
  memberRemoved: (organizationId: string, teamId: string, userId: string) =>
    newEvent(SOURCE, 'identity.team_member.removed', membership(teamId, userId), json(ev.TeamMemberRemoved.toJSON({ organizationId, teamId, userId })), organizationId),
};
