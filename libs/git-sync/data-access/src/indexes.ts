import { OUTBOX_INDEX } from '@bindery/platform/events';
import { IndexPlan } from '@bindery/platform/mongo';

export const COLLECTIONS = {
  notes: 'notes',
} as const;

/** Collections whose documents carry outbox events for the relay. */
export const OUTBOX_COLLECTIONS = [COLLECTIONS.notes];

/** One index per query path. */
export const GIT_SYNC_INDEXES: IndexPlan = {
  [COLLECTIONS.notes]: [{ key: { subject: 1, createdAt: 1 }, name: 'subject_created' }, OUTBOX_INDEX],
};
