import { OUTBOX_INDEX } from '@bindery/platform/events';
import { IDEMPOTENCY_KEY_INDEXES, IndexPlan } from '@bindery/platform/mongo';

export const COLLECTIONS = {
  changeRequests: 'change_requests',
  counters: 'space_counters',
  comments: 'comments',
  replies: 'replies',
  reviews: 'reviews',
} as const;

/** Collections whose documents carry outbox events for the relay. */
export const OUTBOX_COLLECTIONS = [COLLECTIONS.changeRequests, COLLECTIONS.comments, COLLECTIONS.replies, COLLECTIONS.reviews];

const SOFT_DELETED = { key: { deletedAt: 1 }, name: 'deleted', partialFilterExpression: { deletedAt: { $exists: true } } };

/** One index per query path; a change request's number is unique in its space by index. */
export const CHANGE_REQUEST_INDEXES: IndexPlan = {
  [COLLECTIONS.changeRequests]: [
    { key: { spaceId: 1, number: 1 }, name: 'space_number', unique: true },
    { key: { spaceId: 1, status: 1, updatedAt: -1, _id: -1 }, name: 'space_updated' },
    { key: { spaceId: 1, status: 1, createdAt: -1, _id: -1 }, name: 'space_created' },
    { key: { organizationId: 1, status: 1, updatedAt: -1, _id: -1 }, name: 'org_updated' },
    { key: { organizationId: 1, status: 1, createdAt: -1, _id: -1 }, name: 'org_created' },
    { key: { organizationId: 1, 'requestedReviewers.userId': 1 }, name: 'org_reviewer' },
    OUTBOX_INDEX,
  ],
  [COLLECTIONS.comments]: [{ key: { changeRequestId: 1, postedAt: 1, _id: 1 }, name: 'by_change_request' }, { key: { spaceId: 1 }, name: 'by_space' }, SOFT_DELETED, OUTBOX_INDEX],
  [COLLECTIONS.replies]: [{ key: { commentId: 1, postedAt: 1, _id: 1 }, name: 'by_comment' }, { key: { spaceId: 1 }, name: 'by_space' }, SOFT_DELETED, OUTBOX_INDEX],
  [COLLECTIONS.reviews]: [{ key: { changeRequestId: 1, createdAt: 1, _id: 1 }, name: 'by_change_request' }, { key: { spaceId: 1 }, name: 'by_space' }, OUTBOX_INDEX],
  ...IDEMPOTENCY_KEY_INDEXES,
};

/** Indexes of earlier versions, dropped at start: idempotency keys lived on the change requests they created (unique per caller and key, never expiring). */
export const RETIRED_CHANGE_REQUEST_INDEXES: Record<string, string[]> = {
  [COLLECTIONS.changeRequests]: ['idempotency_key'],
};
