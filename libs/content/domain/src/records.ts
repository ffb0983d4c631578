import type { IdempotencyMark } from '@bindery/shared/ids';
import { isRole, Role } from '@bindery/shared/roles';

/** A content's default level: a role for every non-guest member, `inherit` from its parent, or null (no access by default). */
export type Level = Role | 'inherit' | null;

export function isLevel(value: unknown): value is Level {
  return value === null || value === 'inherit' || isRole(value);
}

export type ContentKind = 'space' | 'collection';
export type PrincipalKind = 'user' | 'team';

export interface CollectionRecord {
  _id: string;
  organizationId: string;
  /** the Idempotency-Key it was created with, on records of earlier versions only (keys now live in idempotency_keys) */
  idempotency?: IdempotencyMark;
  title: string;
  description?: string;
  /** null: the organization's top level */
  parent: string | null;
  defaultLevel: Level;
  /** order among siblings (spaces and collections of one parent) */
  position: number;
  createdAt: string;
  updatedAt: string;
  deletedAt?: string;
  /** the collection whose deletion took this one with it */
  deletedWith?: string;
  /** set once the purge has published its event; the document is removed after that */
  purgedAt?: string;
}

export interface SpaceRecord {
  _id: string;
  organizationId: string;
  /** the Idempotency-Key it was created with, on records of earlier versions only (keys now live in idempotency_keys) */
  idempotency?: IdempotencyMark;
  title: string;
  emoji: string;
  icon?: string;
  visibility: string;
  editMode: 'live' | 'locked';
  parent: string | null;
  defaultLevel: Level;
  position: number;
  revision: string;
  createdAt: string;
  updatedAt: string;
  deletedAt?: string;
  deletedWith?: string;
  purgedAt?: string;
  /** change-requests' counts for the space, from its events (change-request-counts.ts in feature-grpc) */
  counts?: SpaceCounts;
}

/** A space's change requests by status and its open comments (change-requests owns them). */
export interface SpaceCounts {
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
}

/** A role given directly to a user or a team on a space or a collection. */
export interface GrantRecord {
  _id: string;
  organizationId: string;
  targetKind: ContentKind;
  targetId: string;
  principalKind: PrincipalKind;
  principalId: string;
  role: Role;
  createdAt: string;
  updatedAt: string;
  /** set when the grant is withdrawn (its event relayed, the document is removed later) */
  removedAt?: string;
}
