import { GitBookAPI as ReferenceGitBookAPI } from '@gitbook/api';
import { GitBookAPI } from 'gitbook-api-latest';
import { assertErrorBody, assertMatchesSpec, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace } from './content-fixtures';
import { ContentWriter, contentWriter } from './content-writer';
import { createOrganization, createUser, TestUser } from './fixtures';
import { Client, http } from './http-client';
import { CreatedSite, createPublishedSite, createShareLink, shareUrl, visitorToken } from './site-fixtures';

const RESOLVE = '/urls/published';
const PUBLISHING_AUTH = '/orgs/{organizationId}/sites/{siteId}/publishing/auth';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/**
 * The published-URL resolver through the gateway, with the official 0.202.0 client
 * (`urls.resolvePublishedContentByUrl`), every answer checked against the official spec: what a
 * renderer signed in with a token of its own gets for each visibility, share keys, visitor tokens,
 * conditions and redirects, and what the site token it hands out reads.
 */
describe('the published-URL resolver (real system)', () => {
  let sut: SystemUnderTest;
  let owner: TestUser;
  let admin: Client;
  /** someone signed in who is no member of the organization: a renderer */
  let renderer: GitBookAPI;
  let rendererHttp: Client;
  let writer: ContentWriter;
  let orgId: string;
  const space = { handbook: '', beta: '' };

  /** The official answer, checked against the spec. */
  async function resolve(url: string, visitor?: { jwtToken?: string; unsignedClaims?: Json }): Promise<Json> {
    const res = await renderer.urls.resolvePublishedContentByUrl({ url, ...(visitor ? { visitor } : {}) });
    expect(res.status).toBe(200);
    assertMatchesSpec('0.202.0', 'post', RESOLVE, 200, res.data);
    return res.data as Json;
  }
  /** The status of a resolution that may be refused (the error body checked). */
  async function statusOf(url: string, visitor?: Json): Promise<number> {
    const res = await rendererHttp.post('/v1/urls/published', { url, ...(visitor ? { visitor } : {}) });
    if (res.status !== 200) assertErrorBody(res.status, res.body);
    return res.status;
  }
  const readerOf = (answer: Json) => http(sut.baseUrl, answer.apiToken);
  const site = (spaceIds: string[], visibility: string) => createPublishedSite(admin, orgId, spaceIds, visibility);

  beforeAll(async () => {
    sut = await sharedSystem();
    owner = await createUser(sut, 'resolver-owner');
    admin = http(sut.baseUrl, owner.token);
    const outsider = await createUser(sut, 'renderer');
    renderer = new GitBookAPI({ endpoint: sut.baseUrl, authToken: outsider.token });
    rendererHttp = http(sut.baseUrl, outsider.token);
    orgId = await createOrganization(sut, owner, 'Published URLs');
    writer = contentWriter(sut);
    space.handbook = (await createSpace(admin, orgId, { title: 'Handbook' })).id;
    space.beta = (await createSpace(admin, orgId, { title: 'Beta' })).id;
    for (const id of Object.values(space)) await writer.apply(owner.id, id, [{ operation: 'insert_page', title: 'Getting Started', document: { markdown: 'Welcome.' } }]);
  }, 240_000);
  afterAll(() => writer?.close());

  it('a public site resolves for anyone signed in: site, site space, space, revision, page path, and a token that reads only its spaces', async () => {
    const s = await site([space.handbook], 'public');
    const a = await resolve(`${s.url}/getting-started`);
    const basePath = new URL(s.url).pathname;
    const current = (await admin.get(`/v1/spaces/${space.handbook}`)).body.revision;
    expect(a).toEqual({
      organization: orgId,
      site: s.id,
      siteSpace: s.siteSpaceIds[0],
      space: space.handbook,
      revision: current,
      pathname: 'getting-started',
      basePath: `${basePath}/`,
      siteBasePath: `${basePath}/`,
      canonicalUrl: `${s.url}/getting-started`,
      complete: true,
      apiToken: expect.stringMatching(/^bsite_/),
    });
    const reader = readerOf(a);
    const page = await reader.get(`/v1/spaces/${space.handbook}/content/path/getting-started`);
    expect(page.status).toBe(200);
    assertMatchesSpec('0.130.0', 'get', '/spaces/{spaceId}/content/path/{pagePath}', 200, page.body);
    expect((await reader.get(`/v1/spaces/${space.beta}`)).status).toBe(404);
    expect((await reader.post('/v1/urls/published', { url: s.url })).status).toBe(403);
  });

  /** What a JWT reader such as jwt-decode does with a token: the second of three dot-separated parts, base64url JSON. */
  const jwtPayload = (token: string): Json => {
    const parts = token.split('.');
    expect(parts).toHaveLength(3);
    return JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
  };

  it("resolves without any token, as GitBook's resolver does for its renderer: a public site opens, with a site token that reads as a JWT and reads the site", async () => {
    const anonymous = http(sut.baseUrl);
    const s = await site([space.handbook], 'public');
    const res = await anonymous.post('/v1/urls/published', { url: `${s.url}/getting-started` });
    expect(res.status).toBe(200);
    assertMatchesSpec('0.202.0', 'post', RESOLVE, 200, res.body);
    expect(res.body).toMatchObject({ organization: orgId, site: s.id, space: space.handbook, pathname: 'getting-started' });
    const before = Math.floor(Date.now() / 1000);
    const payload = jwtPayload(res.body.apiToken);
    expect(payload).toMatchObject({ kind: 'site', organization: orgId, site: s.id, siteSpace: s.siteSpaceIds[0], space: space.handbook, spaces: [space.handbook] });
    expect(payload.exp).toBeGreaterThan(before);
    expect(payload.exp).toBeLessThanOrEqual(before + 3601);
    expect(payload.claims).toBeUndefined();
    const page = await readerOf(res.body).get(`/v1/spaces/${space.handbook}/content/path/getting-started`);
    expect(page.status).toBe(200);
    // the claims a visitor sends ride in the token for the renderer to read
    const withClaims = await anonymous.post('/v1/urls/published', { url: s.url, visitor: { unsignedClaims: { plan: 'pro' } } });
    expect(withClaims.status).toBe(200);
    expect(jwtPayload(withClaims.body.apiToken).claims).toEqual({ unsigned: { plan: 'pro' } });
    // a token sent is still checked
    expect((await http(sut.baseUrl, 'gb_api_this-token-was-never-issued').post('/v1/urls/published', { url: s.url })).status).toBe(401);
  });

  it('without a token, an unpublished, share-link (no key) or visitor-auth (no visitor) site answers exactly as a URL that names no site', async () => {
    const anonymous = http(sut.baseUrl);
    const unpublished = await site([space.handbook], 'public');
    expect((await admin.post(`/v1/orgs/${orgId}/sites/${unpublished.id}/unpublish`)).status).toBe(200);
    const shareLink = await site([space.handbook], 'share-link');
    await createShareLink(admin, orgId, shareLink.id);
    const visitorAuth = await site([space.handbook], 'visitor-auth');
    const answer = async (url: string) => {
      const res = await anonymous.post('/v1/urls/published', { url });
      return { status: res.status, body: res.body };
    };
    const nothing = await answer(`${unpublished.url}-never-created/getting-started`);
    expect(nothing.status).toBe(404);
    assertErrorBody(nothing.status, nothing.body);
    for (const s of [unpublished, shareLink, visitorAuth]) expect({ site: s.id, ...(await answer(`${s.url}/getting-started`)) }).toEqual({ site: s.id, ...nothing });
  });

  it('a share-link site resolves only with an active key in the URL, never echoing it; an unpublished site never', async () => {
    const s = await site([space.handbook], 'share-link');
    const link = await createShareLink(admin, orgId, s.id);
    expect(await statusOf(`${s.url}/getting-started`)).toBe(404);
    expect(await statusOf(shareUrl(s, 'bshare_guessed', '/getting-started'))).toBe(404);
    const a = await resolve(shareUrl(s, link.key, '/getting-started'));
    expect(a).toMatchObject({ site: s.id, pathname: 'getting-started', basePath: `${new URL(s.url).pathname}/` });
    expect(JSON.stringify(a)).not.toContain(link.key);
    expect((await readerOf(a).get(`/v1/spaces/${space.handbook}`)).status).toBe(200);

    expect((await admin.patch(`/v1/orgs/${orgId}/sites/${s.id}/share-links/${link.id}`, { active: false })).status).toBe(200);
    expect(await statusOf(shareUrl(s, link.key))).toBe(404);

    const unpublished = await site([space.handbook], 'public');
    expect((await admin.post(`/v1/orgs/${orgId}/sites/${unpublished.id}/unpublish`)).status).toBe(200);
    expect(await statusOf(unpublished.url)).toBe(404);
    expect(await statusOf('https://no-such-site.example.com/')).toBe(404);
  });

  it('a visitor-auth site resolves with a visitor token signed with its key (getSitePublishingAuthById); a new key ends the old tokens', async () => {
    const s = await site([space.handbook], 'visitor-auth');
    const reference = new ReferenceGitBookAPI({ endpoint: sut.baseUrl, authToken: owner.token });
    const auth = await reference.orgs.getSitePublishingAuthById(orgId, s.id);
    assertMatchesSpec('0.130.0', 'get', PUBLISHING_AUTH, 200, auth.data);
    expect(auth.data).toEqual({ object: 'publishing-auth', backend: 'custom', privateKey: expect.any(String) });
    expect((await reference.orgs.getSitePublishingAuthById(orgId, s.id)).data.privateKey).toBe(auth.data.privateKey);
    const exp = Math.floor(Date.now() / 1000) + 600;
    const jwtToken = visitorToken({ sub: 'reader-1', exp }, auth.data.privateKey);

    expect(await statusOf(s.url)).toBe(404);
    expect(await statusOf(s.url, { jwtToken: visitorToken({ exp }, 'not-the-key') })).toBe(404);
    const a = await resolve(s.url, { jwtToken });
    expect(a).toMatchObject({ site: s.id, siteSpace: s.siteSpaceIds[0], pathname: '' });
    expect((await readerOf(a).get(`/v1/spaces/${space.handbook}/content/pages`)).status).toBe(200);

    const regenerated = await reference.orgs.regenerateSitePublishingAuthById(orgId, s.id);
    assertMatchesSpec('0.130.0', 'post', `${PUBLISHING_AUTH}/regenerate`, 200, regenerated.data);
    expect(regenerated.data.privateKey).not.toBe(auth.data.privateKey);
    expect(await statusOf(s.url, { jwtToken })).toBe(404);
    expect((await resolve(s.url, { jwtToken: visitorToken({ exp }, regenerated.data.privateKey) })).site).toBe(s.id);
  });

  it("a site space whose condition fails is as if absent, in the resolution and in the token's scope", async () => {
    const s = await site([space.handbook, space.beta], 'public');
    const [handbook, beta] = s.siteSpaceIds;
    const updated = await admin.patch(`/v1/orgs/${orgId}/sites/${s.id}/site-spaces/${beta}`, { condition: 'visitor.claims.unsigned.beta === true' });
    expect(updated.status).toBe(200);
    const anyone = await resolve(`${s.url}/beta/getting-started`);
    expect(anyone).toMatchObject({ siteSpace: handbook, pathname: 'beta/getting-started' });
    expect((await readerOf(anyone).get(`/v1/spaces/${space.beta}`)).status).toBe(404);
    const tester = await resolve(`${s.url}/beta/getting-started`, { unsignedClaims: { beta: true } });
    expect(tester).toMatchObject({ siteSpace: beta, space: space.beta, pathname: 'getting-started', basePath: `${new URL(s.url).pathname}/beta/` });
    expect((await readerOf(tester).get(`/v1/spaces/${space.beta}`)).status).toBe(200);
  });

  it('a path with no page that a live redirect of the site matches answers the redirect variant', async () => {
    const s = await site([space.handbook, space.beta], 'public');
    const redirects = `/v1/orgs/${orgId}/sites/${s.id}/redirects`;
    expect((await admin.post(redirects, { source: '/old', destination: { kind: 'external', url: 'https://example.com/new' } })).status).toBe(201);
    expect((await admin.post(redirects, { source: '/moved', destination: { kind: 'site-space', siteSpaceId: s.siteSpaceIds[1] } })).status).toBe(201);
    expect((await admin.post(redirects, { source: '/getting-started', destination: { kind: 'external', url: 'https://example.com/shadowed' } })).status).toBe(201);
    expect(await resolve(`${s.url}/old`)).toEqual({ target: 'external', site: s.id, redirect: 'https://example.com/new' });
    expect(await resolve(`${s.url}/moved`)).toEqual({ target: 'content', redirect: `${s.url}/beta` });
    // a page that exists wins over a redirect from its path
    expect(await resolve(`${s.url}/getting-started`)).toMatchObject({ siteSpace: s.siteSpaceIds[0], pathname: 'getting-started' });
    // a path that is neither: the content, for the renderer's own 404
    expect(await resolve(`${s.url}/nowhere`)).toMatchObject({ siteSpace: s.siteSpaceIds[0], pathname: 'nowhere' });
  });

  it("an address of the form before basenames were per organization answers the redirect variant to the site's URL", async () => {
    const s = await site([space.handbook], 'public');
    const basename = `moved-${Date.now().toString(36)}`;
    expect((await admin.patch(`/v1/orgs/${orgId}/sites/${s.id}`, { basename })).status).toBe(200);
    const reader = new URL(s.url).origin;
    expect(await resolve(`${reader}/${basename}/getting-started`)).toEqual({ target: 'content', redirect: `${reader}/${orgId}/${basename}/getting-started` });
    expect(await resolve(`${reader}/${orgId}/${basename}/getting-started`)).toMatchObject({ site: s.id, pathname: 'getting-started' });
  });

  it('refuses what is not a URL or not a visitor as the official body has them (400)', async () => {
    const s: CreatedSite = await site([space.handbook], 'public');
    const bad: Record<string, number> = {};
    for (const [name, body] of Object.entries({
      'no url': {},
      'not a url': { url: 'docs' },
      'unknown field': { url: s.url, extra: true },
      'claims not an object': { url: s.url, visitor: { unsignedClaims: [1] } },
      'unknown visitor field': { url: s.url, visitor: { token: 'x' } },
    })) {
      const res = await rendererHttp.post('/v1/urls/published', body);
      assertErrorBody(res.status, res.body);
      bad[name] = res.status;
    }
    expect(bad).toEqual({ 'no url': 400, 'not a url': 400, 'unknown field': 400, 'claims not an object': 400, 'unknown visitor field': 400 });
  });
});
