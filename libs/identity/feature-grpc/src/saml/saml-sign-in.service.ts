import { createHash } from 'node:crypto';
import { isDuplicateKey } from '@bindery/platform/mongo';
import { notFound, precondition } from '@bindery/platform/errors';
import { assertEmailInClaimedDomains, newMembership, SAML_REQUEST_TTL_MS, sameOriginPath, samlProviderStatus, samlRefusal, UserRecord } from '@bindery/identity/domain';
import { newId } from '@bindery/shared/ids';
import { IdentityDeps } from '../identity-deps';
import { identityEvents } from '../identity-events';
import { createSession } from '../sessions/sessions.service';
import { ConfiguredProvider, identityProviderOf, serviceProviderOf } from './saml-entities';
import { verifySamlResponse } from './saml-response-check';

/** Where SAML sign-in is reached (the gateway's public URL) and what time it is (injected by tests). */
export interface SignInSettings {
  publicUrl: string;
  now(): Date;
}

async function providerOf(deps: IdentityDeps, providerId: string): Promise<ConfiguredProvider> {
  const provider = await deps.samlProviders.findById(providerId);
  if (!provider) throw notFound('SAML provider');
  if (samlProviderStatus(provider) !== 'active') throw precondition('The SAML provider is not fully configured (entityID, certificate and ssoURL).');
  return provider as ConfiguredProvider;
}

/** This instance's service provider metadata for a provider (any provider that exists, configured or not). */
export async function samlMetadata(deps: IdentityDeps, settings: SignInSettings, providerId: string): Promise<string> {
  const provider = await deps.samlProviders.findById(providerId);
  if (!provider) throw notFound('SAML provider');
  return serviceProviderOf(settings.publicUrl, providerId).entity.getMetadata();
}

/**
 * SP-initiated sign-in: an AuthnRequest for the provider's SSO URL (redirect binding). Its id is
 * kept SAML_REQUEST_TTL_MS with where to land afterwards (a same-origin path only).
 */
export async function startSamlLogin(deps: IdentityDeps, settings: SignInSettings, providerId: string, returnTo: string): Promise<string> {
  const provider = await providerOf(deps, providerId);
  const { entity: sp } = serviceProviderOf(settings.publicUrl, providerId);
  const request = sp.createLoginRequest(identityProviderOf(provider), 'redirect');
  const expiresAt = new Date(settings.now().getTime() + SAML_REQUEST_TTL_MS);
  await deps.samlRequests.insert({ _id: request.id, samlProviderId: providerId, returnTo: sameOriginPath(returnTo), expiresAt });
  return request.context;
}

/** The user with this address, created when there is none (a concurrent sign-in may create it first). */
async function userFor(deps: IdentityDeps, email: string, displayName: string | undefined, at: string): Promise<UserRecord> {
  const existing = await deps.users.findByEmail(email);
  if (existing) return existing;
  const id = newId();
  try {
    const user = await deps.users.insert({ _id: id, email, displayName: displayName?.slice(0, 100) || email.slice(0, email.indexOf('@')), isInstanceAdmin: false, createdAt: at }, [
      identityEvents.userCreated(id, email),
    ]);
    deps.eventsRecorded();
    return user;
  } catch (err) {
    const raced = isDuplicateKey(err) ? await deps.users.findByEmail(email) : null;
    if (!raced) throw err;
    return raced;
  }
}

export interface CompletedSignIn {
  sessionSecret: string;
  expiresAt: Date;
  userId: string;
  organizationId: string;
  returnTo: string;
}

/**
 * The ACS: checks the response (saml-response-check.ts), refuses an assertion used before and a
 * response to no pending request of this provider (a response without InResponseTo is an
 * IdP-initiated sign-in, which every provider allows), then provisions the user and opens a
 * session. Provisioning: the e-mail's domain must be one the organization claims; a user unknown
 * by that address is created; a non-member joins with the provider's default role (a member keeps
 * theirs). Events: identity.user.created, identity.member.added.
 */
export async function completeSamlLogin(
  deps: IdentityDeps,
  settings: SignInSettings,
  input: { providerId: string; samlResponse: string; relayState: string },
): Promise<CompletedSignIn> {
  const provider = await deps.samlProviders.findById(input.providerId);
  if (!provider || samlProviderStatus(provider) !== 'active') throw samlRefusal('issuer');
  const now = settings.now();
  const assertion = await verifySamlResponse({ provider: provider as ConfiguredProvider, publicUrl: settings.publicUrl, samlResponse: input.samlResponse, now });

  const key = createHash('sha256').update(`${provider._id}\n${assertion.assertionId}`).digest('hex');
  if (!(await deps.usedAssertions.firstUse({ _id: key, samlProviderId: provider._id, expiresAt: assertion.notOnOrAfter }))) throw samlRefusal('replay');

  let returnTo: string;
  if (assertion.inResponseTo) {
    const pending = await deps.samlRequests.take(assertion.inResponseTo, provider._id, now);
    if (!pending) throw samlRefusal('in_response_to');
    returnTo = pending.returnTo;
  } else {
    returnTo = sameOriginPath(input.relayState);
  }

  const org = await deps.organizations.findById(provider.organizationId);
  if (!org) throw samlRefusal('issuer');
  assertEmailInClaimedDomains(assertion.email, org.emailDomains ?? []);
  const at = now.toISOString();
  const user = await userFor(deps, assertion.email, assertion.displayName, at);
  if (!(await deps.members.find(org._id, user._id))) {
    const added = await deps.members.insert(newMembership({ organizationId: org._id, user, role: provider.defaultRole, sso: true, at }), [
      identityEvents.memberAdded(org._id, user._id, provider.defaultRole),
    ]);
    if (added) deps.eventsRecorded();
  }
  const session = await createSession(deps, { userId: user._id, organizationId: org._id, samlProviderId: provider._id, now });
  return { sessionSecret: session.secret, expiresAt: session.expiresAt, userId: user._id, organizationId: org._id, returnTo };
}
