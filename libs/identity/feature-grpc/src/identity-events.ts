import { EventEnvelope, newEvent } from '@bindery/platform/events';
import { identityEventsV1 as ev } from '@bindery/shared/contracts';
import { RoleOrGuest } from '@bindery/identity/domain';
import { SOURCE } from './identity-deps';

/** Constructors for identity's events; payloads follow proto/bindery/events/identity/v1. */
export const identityEvents = {
  userCreated: (userId: string, email: string): EventEnvelope =>
    newEvent(SOURCE, 'identity.user.created', userId, ev.UserCreated.toJSON({ userId, email }) as object),
  organizationCreated: (organizationId: string, title: string, createdBy: string) =>
    newEvent(SOURCE, 'identity.organization.created', organizationId, ev.OrganizationCreated.toJSON({ organizationId, title, createdBy }) as object, organizationId),
  organizationUpdated: (organizationId: string, changedFields: string[]) =>
    newEvent(SOURCE, 'identity.organization.updated', organizationId, ev.OrganizationUpdated.toJSON({ organizationId, changedFields }) as object, organizationId),
  memberAdded: (organizationId: string, userId: string, role: RoleOrGuest) =>
    newEvent(SOURCE, 'identity.member.added', `${organizationId}:${userId}`, ev.MemberAdded.toJSON({ organizationId, userId, role: role ?? undefined }) as object, organizationId),
  memberRoleChanged: (organizationId: string, userId: string, role: RoleOrGuest, previousRole: RoleOrGuest) =>
    newEvent(
      SOURCE,
      'identity.member.role_changed',
      `${organizationId}:${userId}`,
      ev.MemberRoleChanged.toJSON({ organizationId, userId, role: role ?? undefined, previousRole: previousRole ?? undefined }) as object,
      organizationId,
    ),
  memberRemoved: (organizationId: string, userId: string) =>
    newEvent(SOURCE, 'identity.member.removed', `${organizationId}:${userId}`, ev.MemberRemoved.toJSON({ organizationId, userId }) as object, organizationId),
  inviteCreated: (organizationId: string, inviteId: string) =>
    newEvent(SOURCE, 'identity.invite.created', inviteId, ev.InviteCreated.toJSON({ organizationId, inviteId }) as object, organizationId),
};
