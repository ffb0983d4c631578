import { EventHandlers, eventHandlers, on } from '@bindery/platform/events';
import { sessionOf } from '@bindery/platform/mongo';
import { IdentityEvents as E } from '@bindery/identity/client';
import { IdentityDeps } from './identity-deps';
import { acceptPendingInvites } from './invites.service';
import { removeTeamMembershipsOf } from './team-members.service';

/** Identity's own reactions to its events (consumer group `identity.invites`), each in the consumer's transaction. */
export function identityEventHandlers(deps: IdentityDeps): EventHandlers {
  return eventHandlers(
    on(E.userCreated, (data, _e, ctx) => acceptPendingInvites(deps, data.userId, data.email, sessionOf(ctx))),
    on(E.memberRemoved, (data, event, ctx) => removeTeamMembershipsOf(deps, data.organizationId, data.userId, event.time, sessionOf(ctx))),
  );
}
