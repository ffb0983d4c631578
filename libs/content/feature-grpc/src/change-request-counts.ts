import { EventHandlers, eventHandlers, on } from '@bindery/platform/events';
import { sessionOf } from '@bindery/platform/mongo';
import { ChangeRequestEvents as C } from '@bindery/change-requests/client';
import type { ContentDeps } from './content-deps';

/**
 * A space's counts (change requests in all and by status, open comments) are kept on its record from
 * change-requests' events alone: content never asks change-requests. Each event records the status of
 * its change request or comment in content's copy (`change_request_items`) and sets the space's counts
 * computed from that copy, in the consumer's transaction with the event's marker, so an event
 * delivered twice is applied once. Events of one space share a partition (the key is the space), and
 * each change request's and comment's events come from one document of change-requests in order, so
 * the last status recorded is the current one. The counts trail change-requests by the event's travel
 * time (docs/decisions/0006-cheap-reads.md).
 */
export function changeRequestCountHandlers(deps: Pick<ContentDeps, 'spaces' | 'changeRequestItems'>): EventHandlers {
  const items = deps.changeRequestItems;
  const recount = async (spaceId: string, session: ReturnType<typeof sessionOf>) => {
    await deps.spaces.setCounts(spaceId, await items.countsOf(spaceId, session), session);
  };
  return eventHandlers(
    ...[C.created, C.updated, C.merged, C.archived].map((def) =>
      on(def, async (d, _e, ctx) => {
        const session = sessionOf(ctx);
        await items.changeRequest(d.spaceId, d.changeRequestId, d.status, session);
        await recount(d.spaceId, session);
      }),
    ),
    ...[C.commentCreated, C.commentUpdated].map((def) =>
      on(def, async (d, _e, ctx) => {
        const session = sessionOf(ctx);
        // Events written before comment events carried a status: a new comment is open; an update keeps what is known.
        const status = d.status ?? (await items.commentStatus(d.commentId, session)) ?? 'open';
        await items.comment(d.spaceId, d.commentId, status, session);
        await recount(d.spaceId, session);
      }),
    ),
    on(C.commentDeleted, async (d, _e, ctx) => {
      const session = sessionOf(ctx);
      await items.commentDeleted(d.commentId, session);
      await recount(d.spaceId, session);
    }),
  );
}
