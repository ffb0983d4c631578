import { EventEnvelope } from '@bindery/platform/events';
import { IdentityEvents as E } from '@bindery/identity/client';
import { SOURCE } from './identity-deps';

type SamlVerb = 'created' | 'updated' | 'deleted';
const BY_VERB = { created: E.samlProviderCreated, updated: E.samlProviderUpdated, deleted: E.samlProviderDeleted };

/** identity.saml_provider.<verb>: ids only; the settings (certificate above all) never travel in events. */
export function samlProviderEvent(verb: SamlVerb, organizationId: string, samlProviderId: string): EventEnvelope {
  return BY_VERB[verb].create(SOURCE, samlProviderId, { organizationId, samlProviderId }, organizationId);
}
