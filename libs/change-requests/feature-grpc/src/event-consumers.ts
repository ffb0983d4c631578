import { ContentEvents as C } from '@bindery/content/client';
import { IdentityEvents as I } from '@bindery/identity/client';
import { EventHandlers, eventHandlers, on } from '@bindery/platform/events';
import { sessionOf } from '@bindery/platform/mongo';
import { ChangeRequestsDeps } from './deps';

/**
 * What change requests do when a space goes for good or moves to another organization. Each
 * handler writes in the consumer's transaction (`sessionOf`), so it applies with its marker or not at all.
 */
export function contentHandlers(deps: ChangeRequestsDeps): EventHandlers {
  return eventHandlers(
    on(C.spacePurged, async (d, _e, ctx) => {
      const session = sessionOf(ctx);
      await deps.reviews.removeOfSpace(d.spaceId, session);
      await deps.replies.removeOfSpace(d.spaceId, session);
      await deps.comments.removeOfSpace(d.spaceId, session);
      await deps.changeRequests.removeOfSpace(d.spaceId, session);
    }),
    on(C.spaceTransferred, (d, _e, ctx) => deps.changeRequests.moveToOrganization([d.spaceId], d.organizationId, sessionOf(ctx))),
    on(C.collectionTransferred, (d, _e, ctx) => deps.changeRequests.moveToOrganization(d.spaces, d.organizationId, sessionOf(ctx))),
  );
}

/** A member who left an organization is no longer asked to review there. */
export function identityHandlers(deps: ChangeRequestsDeps): EventHandlers {
  return eventHandlers(on(I.memberRemoved, (d, _e, ctx) => deps.changeRequests.removeReviewerEverywhere(d.organizationId, d.userId, sessionOf(ctx))));
}
