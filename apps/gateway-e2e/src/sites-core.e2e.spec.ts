import { randomBytes } from 'node:crypto';
import { GitBookAPI, SiteAgentsContext, SiteType, SiteVisibility } from '@gitbook/api';
import { assertErrorBody, assertMatchesSpec, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace, unknownId } from './content-fixtures';
import { createUser, TestUser } from './fixtures';
import { Client, http, walk } from './http-client';
import { organizationWith } from './team-fixtures';

const OLD = '0.130.0';
const NEW = '0.202.0';
const SITES = '/orgs/{organizationId}/sites';
const SITE = '/orgs/{organizationId}/sites/{siteId}';
const ADAPTIVE = `${SITE}/adaptive-schema`;
const LINKS = `${SITE}/share-links`;
const LINK = `${SITE}/share-links/{shareLinkId}`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const BETA_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    plan: { type: 'string', enum: ['free', 'pro'], description: 'Plan of the visitor' },
    unsigned: {
      type: 'object',
      description: 'Unsigned claims of the site visitor.',
      properties: { isBetaUser: { type: 'boolean', description: 'Visitor is a beta user' } },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};

describe('sites through the gateway (sites, adaptive schema, share links)', () => {
  let sut: SystemUnderTest;
  let owner: TestUser;
  let reader: TestUser;
  let orgId: string;
  let admin: Client;
  let api: GitBookAPI;

  beforeAll(async () => {
    sut = await sharedSystem();
    owner = await createUser(sut, 'site-owner');
    const org = await organizationWith(sut, owner, { reader: 'read' });
    orgId = org.orgId;
    reader = org.users.reader;
    admin = http(sut.baseUrl, owner.token);
    api = new GitBookAPI({ endpoint: sut.baseUrl, authToken: owner.token });
  });

  const path = (siteId: string, rest = '') => `/v1/orgs/${orgId}/sites/${siteId}${rest}`;

  it('creates a site with the official client from spaces, reads, renames, publishes, lists and deletes it', async () => {
    const guide = (await createSpace(admin, orgId, { title: 'User Guide' })).id as string;
    const apiRef = (await createSpace(admin, orgId, { title: 'API' })).id as string;
    const title = `Docs ${randomBytes(3).toString('hex')}`;
    const created = await api.orgs.createSite(orgId, { title, visibility: SiteVisibility.Unlisted, spaces: [guide, apiRef] });
    expect(created.status).toBe(201);
    assertMatchesSpec(OLD, 'post', SITES, 201, created.data);
    assertMatchesSpec(NEW, 'post', SITES, 201, created.data);
    const site = created.data as Json;
    const basename = title.toLowerCase().replace(' ', '-');
    expect(site).toMatchObject({ object: 'site', title, type: 'basic', visibility: 'unlisted', published: false, siteSpaces: 2, defaultSpace: guide, basename });
    expect(site.urls.published).toBeUndefined();
    expect(site.urls.location).toBe(`${sut.baseUrl}/v1/orgs/${orgId}/sites/${site.id}`);

    const got = await api.orgs.getSiteById(orgId, site.id);
    assertMatchesSpec(OLD, 'get', SITE, 200, got.data);
    expect(got.data).toEqual(site);

    const renamed = await api.orgs.updateSiteById(orgId, site.id, { title: 'Renamed docs', agentsContext: SiteAgentsContext.Excluded, adaptiveContent: { enabled: true } });
    assertMatchesSpec(OLD, 'patch', SITE, 200, renamed.data);
    expect(renamed.data).toMatchObject({ title: 'Renamed docs', basename, agentsContext: SiteAgentsContext.Excluded, adaptiveContent: { enabled: true } });

    const published = await api.orgs.publishSite(orgId, site.id);
    assertMatchesSpec(OLD, 'post', `${SITE}/publish`, 200, published.data);
    expect(published.data).toMatchObject({ published: true, urls: { published: expect.stringMatching(new RegExp(`/${basename}$`)) } });
    expect((await api.orgs.publishSite(orgId, site.id)).data).toEqual(published.data);

    const listed = await api.orgs.listSites(orgId, { published: true });
    assertMatchesSpec(OLD, 'get', SITES, 200, listed.data);
    expect(listed.data.items.map((s) => s.id)).toContain(site.id);
    expect((await api.orgs.listSites(orgId, { space: apiRef })).data.items.map((s) => s.id)).toEqual([site.id]);
    expect((await api.orgs.listSites(orgId, { type: [SiteType.Premium, SiteType.Ultimate] })).data.items.map((s) => s.id)).not.toContain(site.id);

    const unpublished = await api.orgs.unpublishSite(orgId, site.id);
    assertMatchesSpec(OLD, 'post', `${SITE}/unpublish`, 200, unpublished.data);
    expect(unpublished.data.published).toBe(false);
    expect(unpublished.data.urls.published).toBeUndefined();

    const deleted = await api.orgs.deleteSiteById(orgId, site.id);
    expect(deleted.status).toBe(205);
    await expect(api.orgs.getSiteById(orgId, site.id)).rejects.toMatchObject({ code: 404 });
    const again = await admin.delete(path(site.id));
    expect(again.status).toBe(204);
    expect(again.body).toBeUndefined();
    // the basename is free again
    expect((await api.orgs.createSite(orgId, { title })).data.basename).toBe(basename);
  });

  it('gives each site of one title its own basename, and refuses a basename another site has (409)', async () => {
    const title = `Same ${randomBytes(3).toString('hex')}`;
    const [a, b] = await Promise.all([1, 2].map(() => admin.post(`/v1/orgs/${orgId}/sites`, { title })));
    expect([a.status, b.status]).toEqual([201, 201]);
    const base = title.toLowerCase().replace(' ', '-');
    expect([a.body.basename, b.body.basename].sort()).toEqual([base, `${base}-2`]);
    const clash = await admin.patch(path(a.body.id), { basename: b.body.basename });
    expect(clash.status).toBe(409);
    assertErrorBody(409, clash.body);
    const mine = `mine-${randomBytes(3).toString('hex')}`;
    const moved = await admin.patch(path(a.body.id), { basename: mine, proxy: 'example.com/docs' });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ basename: mine, proxy: { origin: 'example.com/docs', target: expect.stringMatching(new RegExp(`/${mine}$`)) } });
    expect((await admin.patch(path(a.body.id), { proxy: null })).body.proxy).toBeUndefined();
  });

  it('creates the space a site asks for ("sample" with a first page), and refuses spaces the caller cannot use', async () => {
    const sample = await admin.post(`/v1/orgs/${orgId}/sites`, { title: 'Sample site', spaces: 'sample' });
    expect(sample.status).toBe(201);
    assertMatchesSpec(OLD, 'post', SITES, 201, sample.body);
    const spaceId = sample.body.defaultSpace as string;
    const space = await admin.get(`/v1/spaces/${spaceId}`);
    expect(space.body).toMatchObject({ title: 'Sample site', organization: orgId });
    const pages = await admin.get(`/v1/spaces/${spaceId}/content/pages`);
    expect(pages.body.pages.map((p: Json) => p.title)).toEqual(['Welcome']);
    const empty = await admin.post(`/v1/orgs/${orgId}/sites`, { spaces: 'empty' });
    expect(empty.body).toMatchObject({ title: 'Untitled site', siteSpaces: 1 });

    const elsewhere = await createUser(sut, 'elsewhere');
    const theirOrg = await organizationWith(sut, elsewhere, {});
    const theirs = (await createSpace(http(sut.baseUrl, elsewhere.token), theirOrg.orgId, { title: 'Theirs' })).id as string;
    const mine = (await createSpace(admin, orgId, { title: 'Mine' })).id as string;
    for (const spaces of [[theirs], [unknownId()], [mine, mine]]) {
      const res = await admin.post(`/v1/orgs/${orgId}/sites`, { spaces });
      expect(res.status).toBe(400);
      assertErrorBody(400, res.body);
    }
    const bad = await admin.post(`/v1/orgs/${orgId}/sites`, { title: 'x', hostname: 'docs.example.com' });
    expect(bad.status).toBe(400);
    const defaults = await admin.patch(path(sample.body.id), { defaultSiteSpace: unknownId() });
    expect(defaults.status).toBe(400);
    assertErrorBody(400, defaults.body);
  });

  it('lists a page at a time, filtered by title', async () => {
    const tag = randomBytes(3).toString('hex');
    for (let i = 0; i < 5; i++) expect((await admin.post(`/v1/orgs/${orgId}/sites`, { title: `Paged ${tag} ${i}` })).status).toBe(201);
    const seen = await walk<Json>(admin, `/v1/orgs/${orgId}/sites?title=${encodeURIComponent(`paged ${tag}`)}`, 2, (body) => {
      assertMatchesSpec(OLD, 'get', SITES, 200, body);
      expect(body.count).toBe(5);
    });
    expect(seen.map((s) => s.title)).toEqual([0, 1, 2, 3, 4].map((i) => `Paged ${tag} ${i}`));
  });

  it('keeps an adaptive schema of the official shape and suggests conditions from its claims', async () => {
    const site = (await api.orgs.createSite(orgId, { title: 'Adaptive site' })).data;
    const initial = await api.orgs.getSiteAdaptiveSchema(orgId, site.id);
    assertMatchesSpec(OLD, 'get', ADAPTIVE, 200, initial.data);
    expect(initial.data).toMatchObject({ object: 'site-adaptive-schema', jsonSchema: { type: 'object', additionalProperties: false }, updatedAt: site.createdAt });
    expect((await api.orgs.listSiteAdaptiveTemplateConditions(orgId, site.id)).data).toEqual({ items: [] });

    const put = await api.orgs.updateSiteAdaptiveSchema(orgId, site.id, { jsonSchema: BETA_SCHEMA as never });
    assertMatchesSpec(OLD, 'put', ADAPTIVE, 200, put.data);
    expect(put.data.jsonSchema).toEqual(BETA_SCHEMA);
    expect((await api.orgs.getSiteAdaptiveSchema(orgId, site.id)).data).toEqual(put.data);
    const conditions = await api.orgs.listSiteAdaptiveTemplateConditions(orgId, site.id);
    assertMatchesSpec(OLD, 'get', `${ADAPTIVE}/template-conditions`, 200, conditions.data);
    expect(conditions.data.items).toEqual([
      { description: 'Plan of the visitor: free', condition: 'visitor.claims.plan === "free"' },
      { description: 'Plan of the visitor: pro', condition: 'visitor.claims.plan === "pro"' },
      { description: 'Visitor is a beta user', condition: 'visitor.claims.unsigned.isBetaUser === true' },
    ]);
    const open = await admin.put(path(site.id, '/adaptive-schema'), { jsonSchema: { ...BETA_SCHEMA, additionalProperties: true } });
    expect(open.status).toBe(400);
    assertErrorBody(400, open.body);
  });

  it('makes share links whose keys only site administrators see; deactivating and deleting take effect at once', async () => {
    const site = (await api.orgs.createSite(orgId, { title: 'Shared site', visibility: SiteVisibility.ShareLink })).data;
    const created = await api.orgs.createSiteShareLink(orgId, site.id, { name: 'Partners' });
    expect(created.status).toBe(201);
    assertMatchesSpec(OLD, 'post', LINKS, 201, created.data);
    expect(created.data).toMatchObject({ object: 'share-link', name: 'Partners', active: true, urls: { published: expect.stringMatching(/\/~share\/bshare_[A-Za-z0-9_-]{43}$/) } });
    const key = created.data.urls.published!.split('/~share/')[1];

    const asAdmin = await api.orgs.listSiteShareLinks(orgId, site.id);
    assertMatchesSpec(OLD, 'get', LINKS, 200, asAdmin.data);
    expect(asAdmin.data.items).toEqual([created.data]);
    const asReader = await http(sut.baseUrl, reader.token).get(path(site.id, '/share-links'));
    expect(asReader.status).toBe(200);
    assertMatchesSpec(OLD, 'get', LINKS, 200, asReader.body);
    expect(asReader.body.items).toEqual([{ object: 'share-link', id: created.data.id, createdAt: created.data.createdAt, name: 'Partners', active: true, urls: {} }]);
    expect(JSON.stringify(asReader.body)).not.toContain(key);

    const off = await api.orgs.updateSiteShareLinkById(orgId, site.id, created.data.id, { active: false });
    assertMatchesSpec(OLD, 'patch', LINK, 200, off.data);
    expect(off.data).toMatchObject({ active: false, name: 'Partners' });
    const renamed = await admin.patch(path(site.id, `/share-links/${created.data.id}`), { name: 'Friends' });
    expect(renamed.body).toMatchObject({ active: false, name: 'Friends' });
    expect((await admin.patch(path(site.id, `/share-links/${created.data.id}`), {})).status).toBe(400);

    expect((await api.orgs.deleteSiteShareLinkById(orgId, site.id, created.data.id)).status).toBe(205);
    expect((await admin.delete(path(site.id, `/share-links/${created.data.id}`))).status).toBe(204);
    expect((await api.orgs.listSiteShareLinks(orgId, site.id)).data).toEqual({ items: [], count: 0 });
    const tooLong = await admin.post(path(site.id, '/share-links'), { name: 'x'.repeat(51) });
    expect(tooLong.status).toBe(400);
  });
});
