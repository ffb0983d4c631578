import { forbidden, notFound } from '@bindery/platform/errors';
import { emailDomainOf } from './emails';
import { assertCanAdminister, Standing } from './organization-policy';
import { roleRank, RoleOrGuest } from './roles';

/**
 * An invite link to an organization. Its id (what admins see) is also the secret of the join URL
 * `POST /v1/orgs/{orgId}/invites/{inviteId}`, so the document is keyed by a reference derived from
 * it (a hash), which is what events and pagination cursors carry.
 */
export interface LinkInviteRecord {
  /** `<organizationId>:<ref>` */
  _id: string;
  organizationId: string;
  /** the invite id shown to admins (kept to list it back to them); unset once deleted */
  secret?: string;
  role: RoleOrGuest;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  /** set when deleted (soft delete: the document may hold unsent events) */
  deletedAt?: string;
}

export function linkInviteDocId(organizationId: string, ref: string): string {
  return `${organizationId}:${ref}`;
}

/** Invite links are managed by the organization's admins only; others who see it get 403, the rest 404. */
export function assertCanManageLinkInvites(standing: Standing | undefined): asserts standing is Standing {
  assertCanAdminister(standing);
}

/** "redundant" of the official shape: the caller already has every permission the invite would give. */
export function linkInviteRedundant(standing: Standing | undefined, role: RoleOrGuest): boolean {
  return standing !== undefined && roleRank(standing.role) >= roleRank(role);
}

/** A usable invite: present, not deleted, and the organization has invite links enabled. */
export function assertCanJoinWithLinkInvite(invite: LinkInviteRecord | null | undefined, org: { inviteLinks: boolean } | null | undefined): asserts invite is LinkInviteRecord {
  if (!org || !invite || invite.deletedAt) throw notFound('Invite');
  if (!org.inviteLinks) throw forbidden('Invite links are disabled in this organization; ask an admin to enable them or to invite you by e-mail.');
}

/**
 * Joining by e-mail domain: allowed when the caller's address is in one of the organization's domains.
 * Anyone else learns nothing about the organization (404), as for every organization they cannot see.
 */
export function assertCanJoinByEmailDomain<O extends { emailDomains: string[] }>(org: O | null | undefined, email: string | undefined): asserts org is O {
  if (!org || !email || !org.emailDomains.includes(emailDomainOf(email))) throw notFound('Organization');
}
