import { EventEnvelope } from '@bindery/platform/events';
import { IdentityEvents as E } from '@bindery/identity/client';
import { RoleOrGuest } from '@bindery/identity/domain';
import { SOURCE } from './identity-deps';

/** Identity's events about users, organizations, members and invitations, with their subjects. */
export const identityEvents = {
  userCreated: (userId: string, email: string): EventEnvelope => E.userCreated.create(SOURCE, userId, { userId, email }),
  organizationCreated: (organizationId: string, title: string, createdBy: string) =>
    E.organizationCreated.create(SOURCE, organizationId, { organizationId, title, createdBy }, organizationId),
  /** `hostname`: the organization's hostname after the change (sites builds published URLs from it) */
  organizationUpdated: (organizationId: string, changedFields: string[], hostname?: string) =>
    E.organizationUpdated.create(SOURCE, organizationId, { organizationId, changedFields, hostname }, organizationId),
  memberAdded: (organizationId: string, userId: string, role: RoleOrGuest) =>
    E.memberAdded.create(SOURCE, `${organizationId}:${userId}`, { organizationId, userId, role: role ?? undefined }, organizationId),
  memberRoleChanged: (organizationId: string, userId: string, role: RoleOrGuest, previousRole: RoleOrGuest) =>
    E.memberRoleChanged.create(SOURCE, `${organizationId}:${userId}`, { organizationId, userId, role: role ?? undefined, previousRole: previousRole ?? undefined }, organizationId),
  memberRemoved: (organizationId: string, userId: string) => E.memberRemoved.create(SOURCE, `${organizationId}:${userId}`, { organizationId, userId }, organizationId),
  inviteCreated: (organizationId: string, inviteId: string) => E.inviteCreated.create(SOURCE, inviteId, { organizationId, inviteId }, organizationId),
};
