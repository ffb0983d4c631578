import { OUTBOX_INDEX } from '@bindery/platform/events';
import { IndexPlan } from '@bindery/platform/mongo';

export const COLLECTIONS = {
  /** one record per synced space (`_id` = space id): remote without credentials, commit, file of each page */
  syncs: 'syncs',
  /** the Authorization header of a run whose URL had credentials (`_id` = run id), removed when it ends; expires */
  runCredentials: 'run_credentials',
} as const;

/** Collections whose documents carry outbox events for the relay. */
export const OUTBOX_COLLECTIONS = [COLLECTIONS.syncs];

/** One index per query path. */
export const GIT_SYNC_INDEXES: IndexPlan = {
  [COLLECTIONS.syncs]: [OUTBOX_INDEX],
  [COLLECTIONS.runCredentials]: [{ key: { expireAt: 1 }, name: 'expire', expireAfterSeconds: 0 }],
};
