import { EventEnvelope } from '@bindery/platform/events';
import { IdentityEvents as E } from '@bindery/identity/client';
import { SOURCE } from './identity-deps';

type LinkInviteVerb = 'created' | 'updated' | 'deleted';
const BY_VERB = { created: E.linkInviteCreated, updated: E.linkInviteUpdated, deleted: E.linkInviteDeleted };

/**
 * identity.link_invite.<verb>. The invite is named by its reference (a hash of its id): the id is the
 * secret of the join URL and never travels in events.
 */
export function linkInviteEvent(verb: LinkInviteVerb, organizationId: string, ref: string): EventEnvelope {
  return BY_VERB[verb].create(SOURCE, `${organizationId}:${ref}`, { organizationId, inviteId: ref }, organizationId);
}
