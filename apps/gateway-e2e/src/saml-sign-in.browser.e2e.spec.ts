import { randomBytes } from 'node:crypto';
import { Browser, launchChromium, startSystem, SystemUnderTest, TestIdp } from '@bindery/shared/testing';
import { createSpace } from './content-fixtures';
import { createUser } from './fixtures';
import { http } from './http-client';

/**
 * SAML sign-in in a real browser (Debian's Chromium): a new user starts at Bindery's login URL, the
 * identity provider (samlify's, served on loopback) answers with a page that posts its signed
 * response to the ACS, and the browser lands on the space it asked for, signed in by the session
 * cookie. The user is in the organization with the provider's default role; logout ends the session.
 */
describe('SAML sign-in in Chromium', () => {
  let sut: SystemUnderTest;
  let idp: TestIdp;
  let browser: Browser;
  let orgId: string;
  let providerId: string;
  let spaceId: string;
  const domain = `browser-${randomBytes(3).toString('hex')}.example`;

  beforeAll(async () => {
    sut = await startSystem({}, { services: ['identity', 'content'], publicUrlIsGateway: true });
    idp = await TestIdp.create();
    await idp.start();
    const owner = await createUser(sut, 'owner', domain);
    const api = http(sut.baseUrl, owner.token);
    orgId = (await api.post('/v1/orgs', { title: 'Browser SSO', emailDomains: [domain] })).body.id;
    const provider = await api.post(`/v1/orgs/${orgId}/saml`, {
      label: 'Loopback IdP',
      entityID: idp.entityID,
      certificate: idp.certificate,
      ssoURL: idp.ssoURL,
      defaultRole: 'comment',
    });
    expect(provider.status).toBe(201);
    providerId = provider.body.id;
    spaceId = (await createSpace(api, orgId, { title: 'Field guide' })).id;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await idp?.stop();
    await sut?.stop();
  });

  it('signs a new user in through the provider, reads a space, and logs out', async () => {
    const email = `newcomer-${randomBytes(3).toString('hex')}@${domain}`;
    idp.nextUser = { email };
    const page = await browser.context.newPage();
    // login → the provider's SSO URL → its auto-posting form → the ACS → 303 to the space
    const landed = await page.goto(`${sut.baseUrl}/auth/saml/${providerId}/login?return_to=${encodeURIComponent(`/v1/spaces/${spaceId}`)}`);
    await page.waitForURL(`${sut.baseUrl}/v1/spaces/${spaceId}`);
    expect(landed?.status()).toBe(200);
    expect(JSON.parse(await page.locator('body').innerText())).toMatchObject({ id: spaceId, title: 'Field guide' });

    const [cookie] = (await browser.context.cookies(sut.baseUrl)).filter((c) => c.name === 'bindery_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', secure: false });
    expect(cookie.value).toMatch(/^bsess_/);

    // the page's own requests carry the cookie: the user, their role in the organization
    const fetchJson = (path: string, init: { method?: string; headers?: Record<string, string>; body?: string; redirect?: 'manual' | 'follow' } = {}) =>
      page.evaluate(
        async ([p, i]) => {
          const r = await fetch(p, i);
          return { status: r.status, body: await r.text() };
        },
        [path, init] as const,
      );
    const me = await fetchJson('/v1/user');
    expect(me.status).toBe(200);
    const user = JSON.parse(me.body);
    expect(user.email).toBe(email);
    const member = await fetchJson(`/v1/orgs/${orgId}/members/${user.id}`);
    expect(JSON.parse(member.body).role).toBe('comment');

    // logout from the page (same origin): 303, the cookie is gone, and the old value no longer works
    const out = await fetchJson('/auth/logout', { method: 'POST', redirect: 'manual' });
    expect(out.status).toBe(0); // an opaque redirect: the 303 as a page's fetch sees it
    expect((await browser.context.cookies(sut.baseUrl)).some((c) => c.name === 'bindery_session')).toBe(false);
    expect((await fetchJson('/v1/user')).status).toBe(401);
    expect((await http(sut.baseUrl).get('/v1/user', { cookie: `bindery_session=${cookie.value}` })).status).toBe(401);
    await page.close();
  });
});
