import { DomainError, forbidden } from '@bindery/platform/errors';
import { emailDomainOf } from './emails';

/** How long a browser session lasts from its sign-in (not sliding). */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/** How long a sign-in this instance started waits for the provider's answer. */
export const SAML_REQUEST_TTL_MS = 10 * 60 * 1000;
/** The clock difference allowed with an identity provider, on NotBefore and NotOnOrAfter alike. */
export const SAML_CLOCK_SKEW_MS = 2 * 60 * 1000;

/**
 * Why a SAML response was refused: the class is named in the answer, never the response's content.
 * - `malformed`: not a SAML response Bindery reads (invalid XML, a DOCTYPE or entity, schema)
 * - `status`: the provider answered that the sign-in failed
 * - `signature`: unsigned, signed by another key, changed after signing, or wrapped (XSW)
 * - `issuer`, `audience`, `recipient`: meant for another party
 * - `expired`: outside NotBefore/NotOnOrAfter (with the allowed skew)
 * - `in_response_to`: answers no sign-in this instance started (or one already answered)
 * - `replay`: the assertion was used before
 * - `email`: no usable e-mail address, or its domain is not one the organization claims
 */
export type SamlRefusalReason = 'malformed' | 'status' | 'signature' | 'issuer' | 'audience' | 'recipient' | 'expired' | 'in_response_to' | 'replay' | 'email';

const REFUSAL_PREFIX = 'SAML response refused: ';

export function samlRefusal(reason: SamlRefusalReason): DomainError {
  return forbidden(`${REFUSAL_PREFIX}${reason}.`);
}

/** The reason class of a refusal made by samlRefusal, if `err` is one. */
export function samlRefusalReason(err: unknown): SamlRefusalReason | undefined {
  const message = err instanceof DomainError && err.kind === 'forbidden' ? err.message : '';
  return message.startsWith(REFUSAL_PREFIX) ? (message.slice(REFUSAL_PREFIX.length, -1) as SamlRefusalReason) : undefined;
}

/**
 * Where to land after sign-in: only a path of this origin ("/x", never "//host" or "/\\host", no
 * scheme, no control characters, at most 2,000 characters); anything else is no destination ("").
 */
export function sameOriginPath(returnTo: string | undefined): string {
  const path = (returnTo ?? '').trim();
  if (!path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\') || path.length > 2000) return '';
  if (/[\u0000-\u001f\u007f\\]/.test(path)) return '';
  return path;
}

/**
 * The rule of just-in-time provisioning: an e-mail address is accepted from a provider only when its
 * domain is one the organization claims (its `emailDomains`); an organization that claims none
 * signs nobody in through SAML.
 */
export function assertEmailInClaimedDomains(email: string, emailDomains: readonly string[]): void {
  if (!emailDomains.includes(emailDomainOf(email).toLowerCase())) throw samlRefusal('email');
}
