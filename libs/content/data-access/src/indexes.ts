import { OUTBOX_INDEX } from '@bindery/platform/events';
import { IDEMPOTENCY_KEY_INDEXES, IndexPlan } from '@bindery/platform/mongo';

export const COLLECTIONS = {
  spaces: 'spaces',
  collections: 'collections',
  grants: 'grants',
  revisions: 'revisions',
  contentObjects: 'content_objects',
  treeLocks: 'tree_locks',
  teams: 'identity_teams',
  changeRequestItems: 'change_request_items',
} as const;

/** Collections whose documents carry outbox events for the relay. */
export const OUTBOX_COLLECTIONS = [COLLECTIONS.spaces, COLLECTIONS.collections, COLLECTIONS.grants, COLLECTIONS.revisions];

/** One index per query path; uniqueness of grants comes from a unique index. */
export const CONTENT_INDEXES: IndexPlan = {
  [COLLECTIONS.spaces]: [
    { key: { organizationId: 1, createdAt: 1, _id: 1 }, name: 'org_created' },
    { key: { organizationId: 1, parent: 1, position: 1, _id: 1 }, name: 'siblings' },
    { key: { deletedAt: 1 }, name: 'deleted', partialFilterExpression: { deletedAt: { $exists: true } } },
    { key: { purgedAt: 1 }, name: 'purged', partialFilterExpression: { purgedAt: { $exists: true } } },
    OUTBOX_INDEX,
  ],
  [COLLECTIONS.collections]: [
    { key: { organizationId: 1, createdAt: 1, _id: 1 }, name: 'org_created' },
    { key: { organizationId: 1, parent: 1, position: 1, _id: 1 }, name: 'siblings' },
    { key: { deletedAt: 1 }, name: 'deleted', partialFilterExpression: { deletedAt: { $exists: true } } },
    { key: { purgedAt: 1 }, name: 'purged', partialFilterExpression: { purgedAt: { $exists: true } } },
    OUTBOX_INDEX,
  ],
  [COLLECTIONS.grants]: [
    { key: { targetKind: 1, targetId: 1, principalKind: 1, principalId: 1 }, name: 'grant_unique', unique: true },
    { key: { organizationId: 1, principalKind: 1, principalId: 1 }, name: 'by_principal' },
    { key: { removedAt: 1 }, name: 'removed', partialFilterExpression: { removedAt: { $exists: true } } },
    OUTBOX_INDEX,
  ],
  [COLLECTIONS.revisions]: [
    { key: { spaceId: 1 }, name: 'by_space' },
    // a merge's idempotency key: a repeated merge finds the revision the first one wrote, and two at once cannot both write
    { key: { spaceId: 1, mergeKey: 1 }, name: 'merge_key', unique: true, partialFilterExpression: { mergeKey: { $exists: true } } },
    OUTBOX_INDEX,
  ],
  // Records are read by _id (space and hash); this one serves duplicate and purge.
  [COLLECTIONS.contentObjects]: [{ key: { spaceId: 1 }, name: 'by_space' }],
  [COLLECTIONS.teams]: [{ key: { organizationId: 1 }, name: 'by_org' }],
  [COLLECTIONS.changeRequestItems]: [{ key: { spaceId: 1, kind: 1, status: 1 }, name: 'by_space' }],
  ...IDEMPOTENCY_KEY_INDEXES,
};

/** Indexes of earlier versions, dropped at start: idempotency keys lived on the spaces and collections they created (unique per caller and key, never expiring). */
export const RETIRED_CONTENT_INDEXES: Record<string, string[]> = {
  [COLLECTIONS.spaces]: ['idempotency_key'],
  [COLLECTIONS.collections]: ['idempotency_key'],
};
