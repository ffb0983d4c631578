import { defineEvent } from '@bindery/platform/events';
import { gitSyncEventsV1 as ev } from '@bindery/shared/contracts';

/**
 * Every event git-sync publishes (topic bindery.git-sync.v1), each type paired with its payload message
 * from proto/bindery/events/git_sync/v1 once: producers create and consumers decode through these definitions.
 */
export const GitSyncEvents = {
  syncCompleted: defineEvent('git_sync.sync.completed', ev.SyncCompleted),
};
