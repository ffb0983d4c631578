import { EventEnvelope, EventHandlers } from '@bindery/platform/events';
import { identityEventsV1 as ev } from '@bindery/shared/contracts';
import { IdentityDeps } from './identity-deps';
import { acceptPendingInvites } from './invites.service';
import { removeTeamMembershipsOf } from './team-members.service';

/** Identity's own reactions to its events (consumer group `identity.invites`). */
export function identityEventHandlers(deps: IdentityDeps): EventHandlers {
  return {
    'identity.user.created': async (event: EventEnvelope) => {
      const data = ev.UserCreated.fromJSON(event.data);
      await acceptPendingInvites(deps, data.userId, data.email);
    },
    'identity.member.removed': async (event: EventEnvelope) => {
      const data = ev.MemberRemoved.fromJSON(event.data);
      await removeTeamMembershipsOf(deps, data.organizationId, data.userId, event.time);
    },
  };
}
