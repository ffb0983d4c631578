import { EventHandlers, eventHandlers, on } from '@bindery/platform/events';
import { internalCaller } from '@bindery/platform/grpc';
import { ChangeRequestEvents as C, type ChangeRequestsClients } from '@bindery/change-requests/client';
import type { SpaceCounts } from '@bindery/content/domain';
import type { ContentDeps } from './content-deps';

/** Where the counts of a space come from: change-requests, which owns its change requests and comments. */
export interface SpaceCountsSource {
  countsOf(spaceId: string): Promise<SpaceCounts>;
}

/** change-requests' ChangeRequestStatsService.SpaceCounts, called as content itself. */
export function changeRequestsCountsSource(stats: ChangeRequestsClients['stats']): SpaceCountsSource {
  const caller = internalCaller('content');
  return {
    async countsOf(spaceId) {
      const { items } = await stats.spaceCounts({ spaceIds: [spaceId] }, { caller });
      const c = items.find((i) => i.spaceId === spaceId);
      return {
        comments: c?.comments ?? 0,
        changeRequests: c?.changeRequests ?? 0,
        changeRequestsOpen: c?.changeRequestsOpen ?? 0,
        changeRequestsDraft: c?.changeRequestsDraft ?? 0,
      };
    },
  };
}

/**
 * A space's counts (change requests by status, open comments) are kept on its record, so that a
 * space is answered without asking change-requests on every read. Each event that can change them
 * makes content ask change-requests for the space's counts as they are now and record them: events
 * of one organization arrive in order, one after the other, so the last answer recorded is never
 * older than the last event applied. The counts trail change-requests by the event's travel time
 * (docs/decisions/0006-cheap-reads.md).
 */
export function changeRequestCountHandlers(deps: Pick<ContentDeps, 'spaces'>, source: SpaceCountsSource): EventHandlers {
  const refresh = async (d: { spaceId: string }) => {
    await deps.spaces.setCounts(d.spaceId, await source.countsOf(d.spaceId));
  };
  // It calls change-requests, which a transaction should not wait on; recording the counts again is harmless.
  const outside = { idempotentOutsideTransaction: 'asks change-requests for the counts as they are now; recording them twice changes nothing' };
  return eventHandlers(...[C.created, C.updated, C.merged, C.archived, C.commentCreated, C.commentUpdated, C.commentDeleted].map((def) => on(def, refresh, outside)));
}
