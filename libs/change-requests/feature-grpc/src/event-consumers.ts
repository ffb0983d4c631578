import { ContentEvents as C } from '@bindery/content/client';
import { IdentityEvents as I } from '@bindery/identity/client';
import { EventHandlers, eventHandlers, on } from '@bindery/platform/events';
import { ChangeRequestsDeps } from './deps';

/** What change requests do when a space goes for good or moves to another organization. */
export function contentHandlers(deps: ChangeRequestsDeps): EventHandlers {
  return eventHandlers(
    on(C.spacePurged, async (d) => {
      await deps.reviews.removeOfSpace(d.spaceId);
      await deps.replies.removeOfSpace(d.spaceId);
      await deps.comments.removeOfSpace(d.spaceId);
      await deps.changeRequests.removeOfSpace(d.spaceId);
    }),
    on(C.spaceTransferred, (d) => deps.changeRequests.moveToOrganization([d.spaceId], d.organizationId)),
    on(C.collectionTransferred, (d) => deps.changeRequests.moveToOrganization(d.spaces, d.organizationId)),
  );
}

/** A member who left an organization is no longer asked to review there. */
export function identityHandlers(deps: ChangeRequestsDeps): EventHandlers {
  return eventHandlers(on(I.memberRemoved, (d) => deps.changeRequests.removeReviewerEverywhere(d.organizationId, d.userId)));
}
