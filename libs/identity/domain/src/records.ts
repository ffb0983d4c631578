import { RoleOrGuest } from './roles';

/** What identity stores. Ids are opaque strings; times are ISO 8601 UTC. */
export interface UserRecord {
  _id: string;
  /** lower-cased */
  email: string;
  displayName: string;
  photoURL?: string;
  isInstanceAdmin: boolean;
  createdAt: string;
}

export interface TokenRecord {
  _id: string;
  userId: string;
  label: string;
  /** SHA-256 of the token; the token itself is never stored. */
  hash: string;
  createdAt: string;
}

export interface DefaultContent {
  type: 'site';
  site: string;
}

export interface OrganizationRecord {
  _id: string;
  title: string;
  emailDomains: string[];
  hostname?: string;
  type: 'business' | 'community';
  useCase?: string;
  communityType?: string;
  defaultRole: RoleOrGuest;
  defaultContent?: DefaultContent;
  sso: boolean;
  ai: boolean;
  inviteLinks: boolean;
  plan: string;
  logo?: string;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  /** raised by every change that could take the last admin away (optimistic concurrency) */
  version?: number;
}

export interface MemberRecord {
  /** `<organizationId>:<userId>`: one membership per user and organization */
  _id: string;
  organizationId: string;
  userId: string;
  role: RoleOrGuest;
  joinedAt: string;
  lastSeenAt?: string;
  sso: boolean;
  disabled: boolean;
  /** lower-cased "displayName email" of the user, for the members search */
  searchText: string;
  /** set when the member left or was removed (soft delete: the document may hold unsent events) */
  removedAt?: string;
}

/** A new membership of a user in an organization. */
export function newMembership(input: {
  organizationId: string;
  user: { _id: string; displayName: string; email: string };
  role: RoleOrGuest;
  sso: boolean;
  at: string;
}): Omit<MemberRecord, 'outbox' | 'outboxCount'> {
  return {
    _id: memberId(input.organizationId, input.user._id),
    organizationId: input.organizationId,
    userId: input.user._id,
    role: input.role,
    joinedAt: input.at,
    sso: input.sso,
    disabled: false,
    searchText: `${input.user.displayName} ${input.user.email}`.toLowerCase(),
  };
}

/** An invitation waiting for a user with this e-mail address to exist. */
export interface InviteRecord {
  /** `<organizationId>:<email>` */
  _id: string;
  organizationId: string;
  email: string;
  role: RoleOrGuest;
  sso: boolean;
  invitedBy: string;
  createdAt: string;
  /** set when the user joined through this invite */
  acceptedAt?: string;
}

export function memberId(organizationId: string, userId: string): string {
  return `${organizationId}:${userId}`;
}

export function inviteId(organizationId: string, email: string): string {
  return `${organizationId}:${email}`;
}
