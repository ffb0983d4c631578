import { randomBytes } from 'node:crypto';
import type { Caller } from '@bindery/platform/grpc';
import { connectIdentity, IdentityClients } from '@bindery/identity/client';
import { samlRefusalReason, samlServiceProvider, SESSION_TTL_MS } from '@bindery/identity/domain';
import { ServiceUnderTest, startServiceUnderTest, TestIdp } from '@bindery/shared/testing';
import { identityService } from '../identity-server';
import { IdentityDeps } from '../identity-deps';
import { authenticateSession } from '../sessions/sessions.service';

/**
 * SAML sign-in through identity's gRPC SignInService, against a real identity provider (samlify's):
 * the SP-initiated and IdP-initiated flows, what is stored against replay and unanswered requests,
 * just-in-time provisioning, and the sessions it opens.
 */
describe('SAML sign-in (identity in process, real MongoDB and Kafka)', () => {
  const adminToken = `svc-admin-${randomBytes(12).toString('hex')}`;
  const publicUrl = 'https://docs.example.test';
  const domain = `corp-${randomBytes(3).toString('hex')}.example`;
  let service: ServiceUnderTest<IdentityDeps>;
  let clients: IdentityClients & { close(): void };
  let idp: TestIdp;
  let owner: Caller;
  let organizationId: string;
  let providerId: string;
  let sp: { entityID: string; acsURL: string };

  const createUser = async (admin: Caller, email: string) => {
    const u = await clients.identity.createUser({ email, displayName: email.split('@')[0] }, { caller: admin });
    return { userId: u.id, isInstanceAdmin: false } satisfies Caller;
  };

  beforeAll(async () => {
    service = await startServiceUnderTest(identityService, { BINDERY_ADMIN_TOKEN: adminToken, BINDERY_ADMIN_EMAIL: 'root@svc.test', BINDERY_PUBLIC_URL: publicUrl });
    clients = connectIdentity(service.address, 5000);
    const admin = await clients.identity.authenticate({ token: adminToken });
    idp = await TestIdp.create();
    owner = await createUser(admin, `owner@${domain}`);
    organizationId = (await clients.identity.createOrganization({ title: 'SSO corp', emailDomains: [domain] }, { caller: owner })).id;
    const provider = await clients.saml.createSamlProvider(
      { organizationId, label: 'Corp IdP', entityId: idp.entityID, certificate: idp.certificate, ssoUrl: idp.ssoURL, defaultRole: { value: 'edit' } },
      { caller: owner },
    );
    providerId = provider.id;
    const urls = samlServiceProvider(publicUrl, providerId);
    sp = { entityID: urls.entityID, acsURL: urls.acsURL };
    // another organization, whose member signs in to this one
    const otherOwner = await createUser(admin, `other-${randomBytes(3).toString('hex')}@elsewhere.example`);
    await clients.identity.createOrganization({ title: 'Elsewhere', emailDomains: [] }, { caller: otherOwner });
  });
  afterAll(async () => {
    clients?.close();
    await service?.stop();
  });

  const complete = (samlResponse: string, relayState = '') => clients.signIn.completeSamlLogin({ samlProviderId: providerId, samlResponse, relayState });
  const refusal = (samlResponse: string) =>
    complete(samlResponse).then(
      () => 'accepted',
      (err) => samlRefusalReason(err) ?? `other: ${err}`,
    );
  const roleOf = (userId: string) => clients.members.getMember({ organizationId, userId }, { caller: owner }).then((m) => m.role);

  test('metadata: entity id, ACS URL (POST), e-mail NameID, signed assertions wanted', async () => {
    const { xml } = await clients.signIn.getSamlMetadata({ samlProviderId: providerId });
    expect(xml).toContain(`entityID="${sp.entityID}"`);
    expect(xml).toContain(`Location="${sp.acsURL}"`);
    expect(xml).toContain('urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST');
    expect(xml).toContain('WantAssertionsSigned="true"');
    expect(xml).toContain('AuthnRequestsSigned="false"');
    expect(xml).toContain('urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress');
    await expect(clients.signIn.getSamlMetadata({ samlProviderId: 'nope' })).rejects.toMatchObject({ kind: 'not_found' });
  });

  test('SP-initiated: a new user is created, joins with the default role, and gets a session', async () => {
    const { redirectUrl } = await clients.signIn.startSamlLogin({ samlProviderId: providerId, returnTo: '/spaces/abc?x=1' });
    expect(redirectUrl.startsWith(`${idp.ssoURL}?SAMLRequest=`)).toBe(true);
    const email = `new-${randomBytes(3).toString('hex')}@${domain}`;
    const answer = await idp.answer(redirectUrl, { email });
    expect(answer.acsURL).toBe(sp.acsURL);
    const r = await complete(answer.samlResponse);
    expect(r).toMatchObject({ organizationId, returnTo: '/spaces/abc?x=1' });
    expect(r.sessionSecret).toMatch(/^bsess_[A-Za-z0-9_-]{43}$/);
    const caller = await clients.signIn.authenticateSession({ secret: r.sessionSecret });
    expect(caller).toEqual({ userId: r.userId, isInstanceAdmin: false });
    expect((await clients.identity.getCurrentUser({}, { caller: { userId: r.userId, isInstanceAdmin: false } })).email).toBe(email);
    expect(await roleOf(r.userId)).toBe('edit');
    // only the secret's hash is stored
    const stored = await service.running.mongo.db.collection('sessions').findOne({ userId: r.userId });
    expect(JSON.stringify(stored)).not.toContain(r.sessionSecret.slice(6));
  });

  test('replayed: the same response twice is refused the second time', async () => {
    const response = await idp.respond(sp, { email: `replay@${domain}` });
    expect(await refusal(response)).toBe('accepted');
    expect(await refusal(response)).toBe('replay');
    const { redirectUrl } = await clients.signIn.startSamlLogin({ samlProviderId: providerId, returnTo: '' });
    const spInitiated = (await idp.answer(redirectUrl, { email: `replay@${domain}` })).samlResponse;
    expect(await refusal(spInitiated)).toBe('accepted');
    expect(await refusal(spInitiated)).toBe('replay');
  });

  test('InResponseTo unknown: a response to a request this instance never made', async () => {
    expect(await refusal(await idp.respond(sp, { email: `ghost@${domain}` }, { inResponseTo: '_never-asked' }))).toBe('in_response_to');
  });

  test('a response made for another provider of the organization is refused', async () => {
    const other = await clients.saml.createSamlProvider(
      { organizationId, label: 'Second IdP', entityId: idp.entityID, certificate: idp.certificate, ssoUrl: idp.ssoURL },
      { caller: owner },
    );
    const { redirectUrl } = await clients.signIn.startSamlLogin({ samlProviderId: other.id, returnTo: '' });
    const answered = await idp.answer(redirectUrl, { email: `cross@${domain}` });
    // posted to the first provider's ACS: its audience and recipient are the second's
    expect(await refusal(answered.samlResponse)).toBe('audience');
  });

  test('IdP-initiated: allowed; RelayState is followed only when it is a path of this origin', async () => {
    const email = `idp-init@${domain}`;
    const first = await complete(await idp.respond(sp, { email }), '/o/next');
    expect(first.returnTo).toBe('/o/next');
    for (const relay of ['https://evil.example/x', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)']) {
      expect((await complete(await idp.respond(sp, { email }), relay)).returnTo).toBe('');
    }
  });

  test('an existing member keeps their role; a member of another organization joins with the default role', async () => {
    const r = await complete(await idp.respond(sp, { email: `owner@${domain}` }));
    expect(r.userId).toBe(owner.userId);
    expect(await roleOf(owner.userId)).toBe('admin');

    const admin = await clients.identity.authenticate({ token: adminToken });
    const outsider = await createUser(admin, `outsider@${domain}`);
    await clients.identity.createOrganization({ title: 'Outsider corp', emailDomains: [] }, { caller: outsider });
    const joined = await complete(await idp.respond(sp, { email: `outsider@${domain}` }));
    expect(joined.userId).toBe(outsider.userId);
    expect(await roleOf(outsider.userId)).toBe('edit');
  });

  test("an address outside the organization's claimed domains is refused", async () => {
    expect(await refusal(await idp.respond(sp, { email: 'someone@elsewhere.example' }))).toBe('email');
    expect(await refusal(await idp.respond(sp, { email: 'not-an-address' }))).toBe('email');
  });

  test('a session ends when revoked, and after its 12 hours', async () => {
    const r = await complete(await idp.respond(sp, { email: `session@${domain}` }));
    const deps = service.running.deps;
    const later = (ms: number) => new Date(Date.now() + ms);
    await expect(authenticateSession(deps, r.sessionSecret, later(SESSION_TTL_MS - 60_000))).resolves.toMatchObject({ userId: r.userId });
    await expect(authenticateSession(deps, r.sessionSecret, later(SESSION_TTL_MS + 60_000))).rejects.toMatchObject({ kind: 'unauthenticated' });
    expect(await clients.signIn.revokeSession({ secret: r.sessionSecret })).toEqual({ revoked: true });
    await expect(clients.signIn.authenticateSession({ secret: r.sessionSecret })).rejects.toMatchObject({ kind: 'unauthenticated' });
    expect(await clients.signIn.revokeSession({ secret: r.sessionSecret })).toEqual({ revoked: false });
    await expect(clients.signIn.authenticateSession({ secret: 'bsess_unknown' })).rejects.toMatchObject({ kind: 'unauthenticated' });
    await expect(clients.signIn.authenticateSession({ secret: 'gb_api_token' })).rejects.toMatchObject({ kind: 'unauthenticated' });
  });

  test('a provider not fully configured cannot start a sign-in', async () => {
    const pending = await clients.saml.createSamlProvider({ organizationId, label: 'Pending' }, { caller: owner });
    await expect(clients.signIn.startSamlLogin({ samlProviderId: pending.id, returnTo: '' })).rejects.toMatchObject({ kind: 'precondition' });
  });
});
