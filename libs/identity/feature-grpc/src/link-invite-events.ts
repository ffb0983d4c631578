import { EventEnvelope, newEvent } from '@bindery/platform/events';
import { identityEventsV1 as ev } from '@bindery/shared/contracts';
import { SOURCE } from './identity-deps';

type LinkInviteVerb = 'created' | 'updated' | 'deleted';

/**
 * identity.link_invite.<verb>. The invite is named by its reference (a hash of its id): the id is the
 * secret of the join URL and never travels in events.
 */
export function linkInviteEvent(verb: LinkInviteVerb, organizationId: string, ref: string): EventEnvelope {
  return newEvent(
    SOURCE,
    `identity.link_invite.${verb}`,
    `${organizationId}:${ref}`,
    ev.LinkInviteChanged.toJSON({ organizationId, inviteId: ref }) as object,
    organizationId,
  );
}
