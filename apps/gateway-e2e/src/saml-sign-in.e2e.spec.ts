import { randomBytes } from 'node:crypto';
import { startSystem, SystemUnderTest, TestIdp } from '@bindery/shared/testing';
import { createSpace } from './content-fixtures';
import { createUser, TestUser } from './fixtures';
import { http } from './http-client';

/**
 * SAML sign-in through the gateway over HTTP, against a real identity provider (samlify's, with its
 * own key): SP-initiated sign-in ends in a session cookie the API accepts like the user's token;
 * state changes by cookie need this origin; logout ends the session; refusals answer 403 with the
 * reason class and nothing of the response.
 */
describe('SAML sign-in and browser sessions through the gateway', () => {
  let sut: SystemUnderTest;
  let idp: TestIdp;
  let owner: TestUser;
  let orgId: string;
  let providerId: string;
  let spaceId: string;
  const domain = `sso-${randomBytes(3).toString('hex')}.example`;

  beforeAll(async () => {
    sut = await startSystem({}, { services: ['identity', 'content'], publicUrlIsGateway: true });
    idp = await TestIdp.create();
    owner = await createUser(sut, 'owner', domain);
    const api = http(sut.baseUrl, owner.token);
    const org = await api.post('/v1/orgs', { title: 'SSO organization', emailDomains: [domain] });
    expect(org.status).toBe(201);
    orgId = org.body.id;
    const provider = await api.post(`/v1/orgs/${orgId}/saml`, { label: 'Test IdP', entityID: idp.entityID, certificate: idp.certificate, ssoURL: idp.ssoURL, defaultRole: 'read' });
    expect(provider.status).toBe(201);
    providerId = provider.body.id;
    spaceId = (await createSpace(api, orgId, { title: 'Handbook' })).id;
  });
  afterAll(async () => {
    await sut?.stop();
  });

  const url = (path: string) => `${sut.baseUrl}${path}`;
  const post = (path: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(url(path), { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(form) });
  const cookieOf = (res: Response) => /bindery_session=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1] ?? '';
  const withCookie = (cookie: string, headers: Record<string, string> = {}) => ({ cookie: `other=1; bindery_session=${cookie}`, accept: 'application/json', ...headers });

  /** SP-initiated, as a browser goes: login → the provider → the ACS. */
  async function signIn(email: string, returnTo = '/x/landing') {
    const login = await fetch(url(`/auth/saml/${providerId}/login?return_to=${encodeURIComponent(returnTo)}`), { redirect: 'manual' });
    expect(login.status).toBe(302);
    const answer = await idp.answer(login.headers.get('location')!, { email });
    expect(answer.acsURL).toBe(url(`/auth/saml/${providerId}/acs`));
    return post(`/auth/saml/${providerId}/acs`, { SAMLResponse: answer.samlResponse, ...(answer.relayState ? { RelayState: answer.relayState } : {}) });
  }

  it('serves the service provider metadata', async () => {
    const res = await fetch(url(`/auth/saml/${providerId}/metadata`));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/samlmetadata+xml');
    const xml = await res.text();
    expect(xml).toContain(`entityID="${url(`/auth/saml/${providerId}/metadata`)}"`);
    expect(xml).toContain(`Location="${url(`/auth/saml/${providerId}/acs`)}"`);
    expect((await fetch(url('/auth/saml/unknown/metadata'))).status).toBe(404);
  });

  it('signs a new user in: session cookie, same principal as a token, the default role; reads a space; logs out', async () => {
    const email = `new-${randomBytes(3).toString('hex')}@${domain}`;
    const acs = await signIn(email);
    expect(acs.status).toBe(303);
    expect(acs.headers.get('location')).toBe('/x/landing');
    const setCookie = acs.headers.get('set-cookie')!;
    // Secure is left out only because the public URL is http://127.0.0.1
    expect(setCookie).toMatch(/^bindery_session=bsess_[A-Za-z0-9_-]{43}; Max-Age=43\d{3}; Path=\/; HttpOnly; SameSite=Lax$/);
    const cookie = cookieOf(acs);

    const me = await http(sut.baseUrl).get('/v1/user', withCookie(cookie));
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(email);
    const member = await http(sut.baseUrl).get(`/v1/orgs/${orgId}/members/${me.body.id}`, withCookie(cookie));
    expect(member.status).toBe(200);
    expect(member.body.role).toBe('read');
    const space = await http(sut.baseUrl).get(`/v1/spaces/${spaceId}`, withCookie(cookie));
    expect(space.status).toBe(200);
    expect(space.body.title).toBe('Handbook');
    // a reader cannot do what a token of the same user cannot do either
    const write = await http(sut.baseUrl).post(`/v1/orgs/${orgId}/spaces`, { title: 'No' }, withCookie(cookie, { origin: sut.baseUrl }));
    expect(write.status).toBe(403);

    const out = await post('/auth/logout', {}, withCookie(cookie, { origin: sut.baseUrl }));
    expect(out.status).toBe(303);
    expect(out.headers.get('set-cookie')).toMatch(/^bindery_session=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax$/);
    expect((await http(sut.baseUrl).get('/v1/user', withCookie(cookie))).status).toBe(401);
  });

  it('state changes by cookie must come from this origin (CSRF); a bearer token wins over the cookie', async () => {
    const cookie = cookieOf(await signIn(`csrf-${randomBytes(3).toString('hex')}@${domain}`));
    const ping = (headers: Record<string, string>) => http(sut.baseUrl).post(`/v1/orgs/${orgId}/ping`, undefined, withCookie(cookie, headers));
    expect((await ping({})).status).toBe(403);
    expect((await ping({ origin: 'https://evil.example' })).status).toBe(403);
    expect((await ping({ origin: sut.baseUrl, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await ping({ 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect((await ping({ origin: sut.baseUrl })).status).toBe(200);
    // a cross-site logout is refused too, and the session lives on
    expect((await post('/auth/logout', {}, withCookie(cookie, { origin: 'https://evil.example' }))).status).toBe(403);
    expect((await http(sut.baseUrl).get('/v1/user', withCookie(cookie))).status).toBe(200);
    // Bearer wins: the owner's token with this cookie is the owner
    const both = await http(sut.baseUrl, owner.token).get('/v1/user', withCookie(cookie));
    expect(both.body.id).toBe(owner.id);
    expect((await http(sut.baseUrl, 'not-a-token').get('/v1/user', withCookie(cookie))).status).toBe(401);
  });

  it('refusals answer 403 naming the reason class, never the response', async () => {
    const acsURL = url(`/auth/saml/${providerId}/acs`);
    const sp = { entityID: url(`/auth/saml/${providerId}/metadata`), acsURL };
    const good = await idp.respond(sp, { email: `idp-initiated@${domain}` });
    const tampered = Buffer.from(Buffer.from(good, 'base64').toString('utf8').replace(`idp-initiated@${domain}`, `owner@${domain}`)).toString('base64');
    const res = await post(`/auth/saml/${providerId}/acs`, { SAMLResponse: tampered });
    expect(res.status).toBe(403);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ error: { code: 403, message: 'SAML response refused: signature.' } });
    expect(res.headers.get('set-cookie')).toBeNull();
    // IdP-initiated: accepted once, then a replay
    expect((await post(`/auth/saml/${providerId}/acs`, { SAMLResponse: good, RelayState: '/after' })).headers.get('location')).toBe('/after');
    const replay = await post(`/auth/saml/${providerId}/acs`, { SAMLResponse: good });
    expect(replay.status).toBe(403);
    expect(await replay.text()).toContain('replay');
    expect((await post(`/auth/saml/${providerId}/acs`, {})).status).toBe(400);
  });

  it('the served document lists the sign-in routes as Bindery extras', async () => {
    const doc = (await (await fetch(url('/openapi.json'))).json()) as {
      paths: Record<string, Record<string, unknown>>;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(doc.paths['/auth/saml/{samlProviderId}/acs'].post).toMatchObject({ operationId: 'completeSamlLogin', tags: ['sign-in'], security: [] });
    expect(doc.paths['/auth/logout'].post).toMatchObject({ operationId: 'logout', security: [{ session: [] }] });
    expect(doc.components.securitySchemes.session).toEqual({ type: 'apiKey', in: 'cookie', name: 'bindery_session' });
  });
});
