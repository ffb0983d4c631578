import type { IdempotencyMark } from '@bindery/shared/ids';
import type { Document } from '@bindery/shared/markdown';

export type ChangeRequestStatus = 'draft' | 'open' | 'archived' | 'merged';
export const CHANGE_REQUEST_STATUSES: readonly ChangeRequestStatus[] = ['draft', 'open', 'archived', 'merged'];

/** A change request: a branch of a space, its head revision held by content. */
export interface ChangeRequestRecord {
  _id: string;
  organizationId: string;
  spaceId: string;
  /** the Idempotency-Key it was created with, on records of earlier versions only (keys now live in idempotency_keys) */
  idempotency?: IdempotencyMark;
  /** per space, from a counter that never goes back (unique index on spaceId + number) */
  number: number;
  status: ChangeRequestStatus;
  subject: string;
  description?: Document;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  /** the head revision */
  revision: string;
  /** the space's revision it was created from */
  revisionInitial: string;
  /** the space's revision it was last brought up to date with */
  revisionMergedAncestor?: string;
  revisionMerged?: string;
  /** the Idempotency-Key of the merge that merged it, on records of earlier versions only */
  mergedWith?: IdempotencyMark;
  mergedBy?: string;
  mergedAt?: string;
  /** users who edited its content (the creator first) */
  contributors: string[];
  /** users asked to review (at most MAX_REQUESTED_REVIEWERS; one entry per user) */
  requestedReviewers: RequestedReviewer[];
  /** a merge in progress: who claimed it and until when the claim holds */
  merging?: { token: string; until: string };
}

/** The revision a change request's edits are relative to: where it started or was last brought up to date. */
export function mergeBaseOf(cr: Pick<ChangeRequestRecord, 'revisionInitial' | 'revisionMergedAncestor'>): string {
  return cr.revisionMergedAncestor ?? cr.revisionInitial;
}

export interface ReactionRecord {
  emoji: string;
  users: Array<{ user: string; reactedAt: string }>;
}

export interface CommentRecord {
  _id: string;
  organizationId: string;
  spaceId: string;
  changeRequestId: string;
  postedBy: string;
  postedAt: string;
  editedAt?: string;
  body: Document;
  /** the change request's head when it was posted */
  revision: string;
  page?: string;
  node?: string;
  review?: string;
  status: 'open' | 'resolved';
  resolvedAt?: string;
  resolvedBy?: string;
  reactions: ReactionRecord[];
  /** kept equal to the number of its replies by the same transactions that add and remove them */
  replies: number;
  /** who replied, how often, the latest when; recomputed with `replies` */
  repliers: Array<{ user: string; count: number; updatedAt: string }>;
}

export interface ReplyRecord {
  _id: string;
  spaceId: string;
  changeRequestId: string;
  commentId: string;
  postedBy: string;
  postedAt: string;
  editedAt?: string;
  body: Document;
  reactions: ReactionRecord[];
}

export type ReviewStatus = 'approved' | 'changes-requested';

export interface ReviewRecord {
  _id: string;
  organizationId: string;
  spaceId: string;
  changeRequestId: string;
  revision: string;
  reviewer: string;
  requestedBy?: string;
  status: ReviewStatus;
  comment?: string;
  createdAt: string;
  updatedAt: string;
}

export const MAX_REQUESTED_REVIEWERS = 100;

export interface RequestedReviewer {
  userId: string;
  requestedBy: string;
  /** the head when the review was requested */
  revision: string;
  createdAt: string;
}

/** Which change request of which space (`changeRequest`: its id or its number). */
export interface ChangeRequestRef {
  spaceId: string;
  changeRequest: string;
}
