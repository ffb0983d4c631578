import type { OutboxFields } from '@bindery/platform/events';
import { RoleOrGuest } from './roles';

/** What identity stores. Ids are opaque strings; times are ISO 8601 UTC. */
export interface UserRecord extends OutboxFields {
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

export interface OrganizationRecord extends OutboxFields {
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
}

export interface MemberRecord extends OutboxFields {
  /** `<organizationId>:<userId>`: one membership per user and organization */
  _id: string;
  organizationId: string;
  userId: string;
  role: RoleOrGuest;
  joinedAt: string;
  lastSeenAt?: string;
  sso: boolean;
  disabled: boolean;
}

/** An invitation waiting for a user with this e-mail address to exist. */
export interface InviteRecord extends OutboxFields {
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
