import { EventEnvelope, newEvent } from '@bindery/platform/events';
import { identityEventsV1 as ev } from '@bindery/shared/contracts';
import { SOURCE } from './identity-deps';

type SamlVerb = 'created' | 'updated' | 'deleted';

/** identity.saml_provider.<verb>: ids only; the settings (certificate above all) never travel in events. */
export function samlProviderEvent(verb: SamlVerb, organizationId: string, samlProviderId: string): EventEnvelope {
  return newEvent(
    SOURCE,
    `identity.saml_provider.${verb}`,
    samlProviderId,
    ev.SamlProviderChanged.toJSON({ organizationId, samlProviderId }) as object,
    organizationId,
  );
}
