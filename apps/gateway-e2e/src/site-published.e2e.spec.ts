import { GitBookAPI } from '@gitbook/api';
import { GitBookAPI as LatestGitBookAPI, SiteRedirectOrderBy } from 'gitbook-api-latest';
import { assertErrorBody, assertMatchesSpec, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace, unknownId } from './content-fixtures';
import { ContentWriter, contentWriter } from './content-writer';
import { createOrganization, createUser, TestUser } from './fixtures';
import { Client, http } from './http-client';
import { untilFirst } from './search-fixtures';
import { CreatedSite, createPublishedSite, createShareLink, siteToken } from './site-fixtures';

const REDIRECTS = '/orgs/{organizationId}/sites/{siteId}/redirects';
const REDIRECT = '/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}';
const BY_SOURCE = '/orgs/{organizationId}/sites/{siteId}/redirect';
const SEARCH = '/orgs/{organizationId}/sites/{siteId}/search';

/**
 * Redirects and a site's search through the gateway, with the official clients (0.202.0 for
 * redirects, 0.130.0 for the search), every answer checked against the official spec. Sites and
 * share links are made through the API; site tokens come from the published-URL resolver, through a
 * share link of the site (site-fixtures.ts).
 */
describe('site redirects and site search (real system)', () => {
  let sut: SystemUnderTest;
  let owner: TestUser;
  let admin: Client;
  let latest: LatestGitBookAPI;
  let writer: ContentWriter;
  const tokenOf = async (site: CreatedSite) => siteToken(admin, site, (await createShareLink(admin, site.organizationId, site.id)).key);
  let orgId: string;
  const space = { guides: '', api: '', outside: '' };

  beforeAll(async () => {
    sut = await sharedSystem();
    owner = await createUser(sut, 'site-admin');
    admin = http(sut.baseUrl, owner.token);
    latest = new LatestGitBookAPI({ endpoint: sut.baseUrl, authToken: owner.token });
    orgId = await createOrganization(sut, owner, 'Published sites');
    writer = contentWriter(sut);
    space.guides = (await createSpace(admin, orgId, { title: 'Guides' })).id;
    space.api = (await createSpace(admin, orgId, { title: 'API' })).id;
    space.outside = (await createSpace(admin, orgId, { title: 'Outside' })).id;
    const pages: Record<string, [string, string]> = {
      guides: ['Nebula setup', 'Installing the nebula agent.'],
      api: ['Nebula endpoints', 'The nebula endpoints answer JSON.'],
      outside: ['Nebula secrets', 'Not on the site.'],
    };
    for (const [name, [title, markdown]] of Object.entries(pages)) {
      const spaceId = space[name as keyof typeof space];
      await writer.apply(owner.id, spaceId, [{ operation: 'insert_page', title, document: { markdown } }]);
      await untilFirst(admin, spaceId, 'nebula', title);
    }
  }, 240_000);

  afterAll(async () => {
    writer?.close();
  });

  it('creates, lists, changes, looks up and deletes redirects with the official client, every answer official', async () => {
    const site = await createPublishedSite(admin, orgId, [space.guides, space.api]);
    const [guidesSiteSpace, apiSiteSpace] = site.siteSpaceIds;
    const home = site.url;

    const created = await latest.orgs.createSiteRedirect(orgId, site.id, {
      source: '/old/*',
      destination: { kind: 'site-space', siteSpaceId: apiSiteSpace },
      captureWildcard: true,
    });
    expect(created.status).toBe(201);
    assertMatchesSpec('0.202.0', 'post', REDIRECTS, 201, created.data);
    expect(created.data).toEqual({
      object: 'site-redirect',
      id: expect.any(String),
      source: '/old/*',
      draft: false,
      captureWildcard: true,
      permanent: false,
      destination: { kind: 'site-space', siteSpaceId: apiSiteSpace },
      createdAt: expect.any(String),
    });
    const byPath = await latest.orgs.createSiteRedirect(orgId, site.id, {
      source: '/install',
      destination: { kind: 'path', spaceId: space.guides, path: 'nebula-setup' },
      permanent: true,
    });
    expect(byPath.data.destination).toEqual({ kind: 'site-page', siteSpaceId: guidesSiteSpace, pageId: expect.any(String) });
    await latest.orgs.createSiteRedirect(orgId, site.id, { source: '/blog', destination: { kind: 'external', url: 'https://blog.example.com/' } });
    await latest.orgs.createSiteRedirect(orgId, site.id, { source: '/later', destination: { kind: 'external', url: 'https://later.example.com' }, draft: true });

    const list = await latest.orgs.listSiteRedirects(orgId, site.id, {});
    assertMatchesSpec('0.202.0', 'get', REDIRECTS, 200, list.data);
    expect(list.data.items.map((r) => r.source)).toEqual(['/blog', '/install', '/old/*']);
    expect(list.data.count).toBe(3);
    expect((await latest.orgs.listSiteRedirects(orgId, site.id, { orderBy: SiteRedirectOrderBy.Source, limit: 2 })).data).toMatchObject({
      items: [{ source: '/blog' }, { source: '/install' }],
      count: 3,
      next: { page: expect.any(String) },
    });
    expect((await latest.orgs.listSiteRedirects(orgId, site.id, { draft: true })).data.items.map((r) => r.source)).toEqual(['/later']);
    expect((await latest.orgs.listSiteRedirects(orgId, site.id, { search: 'INST' })).data.items.map((r) => r.source)).toEqual(['/install']);

    const found = await latest.orgs.getSiteRedirectBySource(orgId, site.id, { source: '/old/a/b' });
    assertMatchesSpec('0.202.0', 'get', BY_SOURCE, 200, found.data);
    expect(found.data).toEqual({ redirect: created.data, target: `${home}/api/a/b` });
    expect((await latest.orgs.getSiteRedirectBySource(orgId, site.id, { source: '/install' })).data.target).toBe(`${home}/nebula-setup`);
    expect((await latest.orgs.getSiteRedirectBySource(orgId, site.id, { source: '/blog' })).data.target).toBe('https://blog.example.com/');

    const changed = await latest.orgs.updateSiteRedirectById(orgId, site.id, created.data.id, {
      destination: { kind: 'site-space', siteSpaceId: guidesSiteSpace },
      captureWildcard: false,
    });
    assertMatchesSpec('0.202.0', 'patch', REDIRECT, 200, changed.data);
    expect(changed.data).toMatchObject({ id: created.data.id, captureWildcard: false, updatedAt: expect.any(String) });
    expect((await latest.orgs.getSiteRedirectBySource(orgId, site.id, { source: '/old/a/b' })).data.target).toBe(home);

    const deleted = await latest.orgs.deleteSiteRedirectById(orgId, site.id, created.data.id);
    expect(deleted.status).toBe(205);
    expect((await admin.delete(`/v1/orgs/${orgId}/sites/${site.id}/redirects/${created.data.id}`)).status).toBe(204);
    const gone = await admin.get(`/v1/orgs/${orgId}/sites/${site.id}/redirect?source=/old/a/b`);
    expect(gone.status).toBe(404);
    assertErrorBody(404, gone.body);
  });

  it('refuses duplicate sources (409), malformed sources and destinations (400), and what is not of the site (400)', async () => {
    const site = await createPublishedSite(admin, orgId, [space.guides]);
    const path = `/v1/orgs/${orgId}/sites/${site.id}/redirects`;
    const external = { kind: 'external', url: 'https://example.com' };
    expect((await admin.post(path, { source: '/a', destination: external })).status).toBe(201);
    const answers: Record<string, number> = {};
    const cases: Array<[string, unknown]> = [
      ['duplicate', { source: '/a', destination: external }],
      ['draft of the same source', { source: '/a', destination: external, draft: true }],
      ['no leading slash', { source: 'a', destination: external }],
      ['wildcard inside', { source: '/a*b', destination: external }],
      ['trailing slash', { source: '/a/', destination: external }],
      ['script URL', { source: '/b', destination: { kind: 'external', url: 'javascript:alert(1)' } }],
      ['unknown kind', { source: '/b', destination: { kind: 'elsewhere' } }],
      ['extra field', { source: '/b', destination: external, note: 'x' }],
      ['section of nothing', { source: '/b', destination: { kind: 'site-section', siteSectionId: unknownId() } }],
      ['space not on the site', { source: '/b', destination: { kind: 'path', spaceId: space.outside, path: 'nebula-secrets' } }],
      ['page not in the space', { source: '/b', destination: { kind: 'path', spaceId: space.guides, path: 'nowhere' } }],
    ];
    for (const [name, body] of cases) {
      const res = await admin.post(path, body);
      if (res.status !== 201) assertErrorBody(res.status, res.body);
      answers[name] = res.status;
    }
    expect(answers).toEqual({
      duplicate: 409,
      'draft of the same source': 201,
      'no leading slash': 400,
      'wildcard inside': 400,
      'trailing slash': 400,
      'script URL': 400,
      'unknown kind': 400,
      'extra field': 400,
      'section of nothing': 400,
      'space not on the site': 400,
      'page not in the space': 400,
    });
    expect((await admin.post(`/v1/orgs/${orgId}/sites/${unknownId()}/redirects`, { source: '/c', destination: external })).status).toBe(404);
    expect((await admin.get(`${path}?orderBy=title`)).status).toBe(400);
    expect((await admin.get(`/v1/orgs/${orgId}/sites/${site.id}/redirect`)).status).toBe(400);
  });

  it("looks up a redirect with the site's own token, and with a share key for anyone signed in; nothing else", async () => {
    const site = await createPublishedSite(admin, orgId, [space.guides]);
    await admin.post(`/v1/orgs/${orgId}/sites/${site.id}/redirects`, { source: '/go', destination: { kind: 'external', url: 'https://example.com/go' } });
    const token = await tokenOf(site);
    const reader = new LatestGitBookAPI({ endpoint: sut.baseUrl, authToken: token });
    const viaToken = await reader.orgs.getSiteRedirectBySource(orgId, site.id, { source: '/go' });
    assertMatchesSpec('0.202.0', 'get', BY_SOURCE, 200, viaToken.data);
    expect(viaToken.data.target).toBe('https://example.com/go');
    await expect(reader.orgs.listSiteRedirects(orgId, site.id, {})).rejects.toMatchObject({ code: 403 });

    const { key } = await createShareLink(admin, orgId, site.id);
    const stranger = http(sut.baseUrl, (await createUser(sut, 'visitor')).token);
    expect((await stranger.get(`/v1/orgs/${orgId}/sites/${site.id}/redirect?source=/go`)).status).toBe(404);
    const withKey = await stranger.get(`/v1/orgs/${orgId}/sites/${site.id}/redirect?source=/go&shareKey=${key}`);
    expect(withKey.status).toBe(200);
    assertMatchesSpec('0.202.0', 'get', BY_SOURCE, 200, withKey.body);
    expect(JSON.stringify(withKey.body)).not.toContain(key);
    expect((await stranger.get(`/v1/orgs/${orgId}/sites/${site.id}/redirects`)).status).toBe(404);
  });

  it("searches the spaces of the site's scope with the official client; a site token searches its site", async () => {
    const site = await createPublishedSite(admin, orgId, [space.guides, space.api]);
    const [guidesSiteSpace, apiSiteSpace] = site.siteSpaceIds;
    const api = new GitBookAPI({ endpoint: sut.baseUrl, authToken: owner.token });
    const spacesFound = async (client: GitBookAPI, body: Parameters<GitBookAPI['orgs']['searchSiteContent']>[2]) => {
      const r = await client.orgs.searchSiteContent(orgId, site.id, body);
      expect(r.status).toBe(200);
      assertMatchesSpec('0.130.0', 'post', SEARCH, 200, r.data);
      expect(r.data.count).toBe(r.data.items.length);
      return r.data.items.map((s) => s.id).sort();
    };
    expect(await spacesFound(api, { query: 'nebula', scope: { mode: 'all' } })).toEqual([space.guides, space.api].sort());
    expect(await spacesFound(api, { query: 'nebula', scope: { mode: 'default' } })).toEqual([space.guides]);
    expect(await spacesFound(api, { query: 'nebula', scope: { mode: 'default', includedSiteSpaces: [apiSiteSpace] } })).toEqual([space.guides, space.api].sort());
    expect(await spacesFound(api, { query: 'nebula', scope: { mode: 'specific', siteSpaceIds: [apiSiteSpace] } })).toEqual([space.api]);
    expect(await spacesFound(api, { query: 'nebula', mode: 'all' })).toEqual([space.guides, space.api].sort());
    expect(await spacesFound(api, { query: 'nebula', siteSpaceIds: [guidesSiteSpace] })).toEqual([space.guides]);
    expect(await spacesFound(api, { query: 'nebula', mode: 'current', siteSpaceId: apiSiteSpace })).toEqual([space.guides, space.api].sort());
    // 0.202.0: the visitor's site space is always searched; restrictTo narrows to it, or to the rest of the default scope
    const found = async (scope: Record<string, unknown>) => {
      const r = await admin.post(`/v1/orgs/${orgId}/sites/${site.id}/search`, { query: 'nebula', scope });
      expect(r.status).toBe(200);
      // the answer is 0.130.0's (searchSiteContent's results as the API reference has them)
      assertMatchesSpec('0.130.0', 'post', SEARCH, 200, r.body);
      return (r.body.items as Array<{ id: string }>).map((x) => x.id).sort();
    };
    expect(await found({ mode: 'default', currentSiteSpace: apiSiteSpace })).toEqual([space.guides, space.api].sort());
    expect(await found({ mode: 'default', currentSiteSpace: apiSiteSpace, restrictTo: 'currentSiteSpace' })).toEqual([space.api]);
    expect(await found({ mode: 'default', currentSiteSpace: apiSiteSpace, restrictTo: 'otherSiteSpaces' })).toEqual([space.guides]);
    expect(await found({ mode: 'default', currentSiteSpace: guidesSiteSpace, restrictTo: 'otherSiteSpaces' })).toEqual([]);
    const first = (await api.orgs.searchSiteContent(orgId, site.id, { query: 'endpoints', scope: { mode: 'all' } })).data.items[0];
    expect(first).toMatchObject({ id: space.api, title: 'API', pages: [{ title: 'Nebula endpoints', path: 'nebula-endpoints' }] });

    const token = await tokenOf(site);
    expect(await spacesFound(new GitBookAPI({ endpoint: sut.baseUrl, authToken: token }), { query: 'nebula', scope: { mode: 'all' } })).toEqual([space.guides, space.api].sort());
    const other = await createPublishedSite(admin, orgId, [space.outside]);
    const otherToken = http(sut.baseUrl, await tokenOf(other));
    expect((await otherToken.post(`/v1/orgs/${orgId}/sites/${site.id}/search`, { query: 'nebula', scope: { mode: 'all' } })).status).toBe(404);

    const bad: Record<string, number> = {};
    for (const [name, body] of Object.entries({
      'no scope': { query: 'nebula' },
      'blank query': { query: '  ', scope: { mode: 'all' } },
      'scope and mode': { query: 'nebula', scope: { mode: 'all' }, mode: 'all' },
      'unknown mode': { query: 'nebula', scope: { mode: 'everything' } },
      'current without a site space': { query: 'nebula', mode: 'current' },
      'restrictTo without currentSiteSpace': { query: 'nebula', scope: { mode: 'default', restrictTo: 'currentSiteSpace' } },
      'unknown restrictTo': { query: 'nebula', scope: { mode: 'default', currentSiteSpace: guidesSiteSpace, restrictTo: 'elsewhere' } },
    })) {
      const res = await admin.post(`/v1/orgs/${orgId}/sites/${site.id}/search`, body);
      assertErrorBody(res.status, res.body);
      bad[name] = res.status;
    }
    expect(bad).toEqual({
      'no scope': 400,
      'blank query': 400,
      'scope and mode': 400,
      'unknown mode': 400,
      'current without a site space': 400,
      'restrictTo without currentSiteSpace': 400,
      'unknown restrictTo': 400,
    });
  });
});
