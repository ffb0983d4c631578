import { EventHandlers, eventHandlers, on } from '@bindery/platform/events';
import { IdentityEvents as E } from '@bindery/identity/client';
import { IdentityDeps } from './identity-deps';
import { acceptPendingInvites } from './invites.service';
import { removeTeamMembershipsOf } from './team-members.service';

/** Identity's own reactions to its events (consumer group `identity.invites`). */
export function identityEventHandlers(deps: IdentityDeps): EventHandlers {
  return eventHandlers(
    on(E.userCreated, (data) => acceptPendingInvites(deps, data.userId, data.email)),
    on(E.memberRemoved, (data, event) => removeTeamMembershipsOf(deps, data.organizationId, data.userId, event.time)),
  );
}
