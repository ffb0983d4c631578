import { assertMatchesSpec, sharedSystem, SpecVersion, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace, unknownId } from './content-fixtures';
import { ContentWriter, contentWriter } from './content-writer';
import { createOrganization, organizationWithEveryRole } from './fixtures';
import { Caller, CALLERS, callerClients, Client, matrixMismatches, MatrixRow } from './matrix';
import { http } from './http-client';
import { assertPublishedSite } from './published-site-check';
import { untilFirst } from './search-fixtures';
import { createPublishedSite, createShareLink, siteToken } from './site-fixtures';

type Who = Caller | 'siteToken' | 'otherSiteToken' | 'otherOrgSiteToken';
const WHO: Who[] = [...CALLERS, 'siteToken', 'otherSiteToken', 'otherOrgSiteToken'];

interface Ctx {
  orgId: string;
  siteId: string;
  /** the site's one site space */
  siteSpaceId: string;
  /** a live redirect of the site, from /there */
  redirectId: string;
  /** an active share key of the site */
  key: string;
  admin: Client;
}

const base = (ctx: Ctx) => `/v1/orgs/${ctx.orgId}/sites/${ctx.siteId}`;
const EXTERNAL = { kind: 'external', url: 'https://example.com/there' };

/** The answer, checked against the official spec when it is a success (errors are checked by the matrix). */
async function official(version: SpecVersion, method: string, specPath: string, res: Promise<{ status: number; body: unknown }>) {
  const r = await res;
  if (r.status < 300 && r.body !== undefined) assertMatchesSpec(version, method, specPath, r.status, r.body);
  return r;
}

const SITE = '/orgs/{organizationId}/sites/{siteId}';

/** The published site, checked against 0.202.0 and 0.130.0 (assertPublishedSite). */
async function publishedSite(res: Promise<{ status: number; body: unknown }>) {
  const r = await res;
  if (r.status === 200) assertPublishedSite(r.body);
  return r;
}

// Reading of the expectations. The site is published, visible to share-link holders; a member with
// any role views it (reads its redirects, searches it), the edit role and above change redirects,
// comment and read are refused them (403); the guest and a member of another organization do not
// see the site (404); no token or a bad one: 401. A site token of this site may only look a redirect
// up and search (every other route refuses it, 403, before any service is asked); a site token of
// another site sees no other site (404). A share key lets anyone signed in look up a redirect of the
// published share-link site, never a site token of another site. Deleting what is not there is 204.
// A site token of this site reads the published site (getPublishedContentSite: the site, the
// structure of its audience, the customizations); a site token of another site, of this
// organization or another, gets the 404 of a site that does not exist, with or without a key.
//                                                       admin create review edit comment read guest stranger bad none site otherSite otherOrgSite
const ROWS: Array<MatrixRow<Ctx, Who>> = [
  {
    name: 'GET …/redirects (listSiteRedirects)',
    call: (c, ctx) => official('0.202.0', 'get', `${SITE}/redirects`, c.get(`${base(ctx)}/redirects`)),
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401, 403, 403, 403],
  },
  {
    name: 'POST …/redirects (createSiteRedirect)',
    call: (c, ctx, who) => official('0.202.0', 'post', `${SITE}/redirects`, c.post(`${base(ctx)}/redirects`, { source: `/new-${who}`, destination: EXTERNAL })),
    expect: [201, 201, 201, 201, 403, 403, 404, 404, 401, 401, 403, 403, 403],
  },
  {
    name: 'PATCH …/redirects/{redirect} (updateSiteRedirectById)',
    call: (c, ctx) => official('0.202.0', 'patch', `${SITE}/redirects/{siteRedirectId}`, c.patch(`${base(ctx)}/redirects/${ctx.redirectId}`, { permanent: true })),
    expect: [200, 200, 200, 200, 403, 403, 404, 404, 401, 401, 403, 403, 403],
  },
  {
    name: 'PATCH …/redirects/{no such redirect}',
    call: (c, ctx) => c.patch(`${base(ctx)}/redirects/${unknownId()}`, { permanent: true }),
    expect: [404, 404, 404, 404, 403, 403, 404, 404, 401, 401, 403, 403, 403],
  },
  {
    name: 'DELETE …/redirects/{a redirect made for the caller} (deleteSiteRedirectById)',
    call: async (c, ctx, who) => {
      const made = await ctx.admin.post(`${base(ctx)}/redirects`, { source: `/doomed-${who}`, destination: EXTERNAL });
      if (made.status !== 201) throw new Error(`setup: ${made.status}`);
      return c.delete(`${base(ctx)}/redirects/${made.body.id}`);
    },
    expect: [205, 205, 205, 205, 403, 403, 404, 404, 401, 401, 403, 403, 403],
  },
  {
    name: 'DELETE …/redirects/{no such redirect}',
    call: (c, ctx) => c.delete(`${base(ctx)}/redirects/${unknownId()}`),
    expect: [204, 204, 204, 204, 403, 403, 404, 404, 401, 401, 403, 403, 403],
  },
  {
    name: 'GET …/redirect?source= (getSiteRedirectBySource)',
    call: (c, ctx) => official('0.202.0', 'get', `${SITE}/redirect`, c.get(`${base(ctx)}/redirect?source=/there`)),
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401, 200, 404, 404],
  },
  {
    name: 'GET …/redirect?source=&shareKey= (an active key)',
    call: (c, ctx) => official('0.202.0', 'get', `${SITE}/redirect`, c.get(`${base(ctx)}/redirect?source=/there&shareKey=${ctx.key}`)),
    expect: [200, 200, 200, 200, 200, 200, 200, 200, 401, 401, 200, 404, 404],
  },
  {
    name: 'GET …/redirect?source= (no redirect from there)',
    call: (c, ctx) => c.get(`${base(ctx)}/redirect?source=/nowhere`),
    expect: [404, 404, 404, 404, 404, 404, 404, 404, 401, 401, 404, 404, 404],
  },
  {
    name: 'POST …/search (searchSiteContent)',
    call: (c, ctx) => official('0.130.0', 'post', `${SITE}/search`, c.post(`${base(ctx)}/search`, { query: 'quasar', scope: { mode: 'all' } })),
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401, 200, 404, 404],
  },
  {
    name: 'POST …/search (scope.restrictTo, 0.202.0)',
    call: (c, ctx) =>
      official(
        '0.130.0',
        'post',
        `${SITE}/search`,
        c.post(`${base(ctx)}/search`, { query: 'quasar', scope: { mode: 'default', currentSiteSpace: ctx.siteSpaceId, restrictTo: 'currentSiteSpace' } }),
      ),
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401, 200, 404, 404],
  },
  {
    name: 'GET …/published (getPublishedContentSite)',
    call: (c, ctx) => publishedSite(c.get(`${base(ctx)}/published`)),
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401, 200, 404, 404],
  },
  {
    name: 'GET …/published?shareKey= (an active key)',
    call: (c, ctx) => publishedSite(c.get(`${base(ctx)}/published?shareKey=${ctx.key}`)),
    expect: [200, 200, 200, 200, 200, 200, 200, 200, 401, 401, 200, 404, 404],
  },
  {
    name: 'GET /v1/orgs/{org}/sites/{no such site}/published',
    call: (c, ctx) => c.get(`/v1/orgs/${ctx.orgId}/sites/${unknownId()}/published`),
    expect: [404, 404, 404, 404, 404, 404, 404, 404, 401, 401, 404, 404, 404],
  },
  {
    name: 'GET /v1/orgs/{org}/sites/{no such site}/redirects',
    call: (c, ctx) => c.get(`/v1/orgs/${ctx.orgId}/sites/${unknownId()}/redirects`),
    expect: [404, 404, 404, 404, 404, 404, 404, 404, 401, 401, 403, 403, 403],
  },
];

describe('redirects and site search authorization (roles × endpoints)', () => {
  let sut: SystemUnderTest;
  let clients: Record<Who, Client>;
  let ctx: Ctx;
  let writer: ContentWriter;

  // Longer than the tier: seeds an organization, a member per role, a space indexed for search.
  beforeAll(async () => {
    sut = await sharedSystem();
    const org = await organizationWithEveryRole(sut);
    writer = contentWriter(sut);
    const admin = http(sut.baseUrl, org.members.admin.token);
    const spaceId = (await createSpace(admin, org.orgId, { title: 'Handbook' })).id;
    await writer.apply(org.members.admin.id, spaceId, [{ operation: 'insert_page', title: 'Quasar', document: { markdown: 'Quasars are bright.' } }]);
    await untilFirst(admin, spaceId, 'quasar', 'Quasar');
    const site = await createPublishedSite(admin, org.orgId, [spaceId]);
    const other = await createPublishedSite(admin, org.orgId, [spaceId]);
    const { key } = await createShareLink(admin, org.orgId, site.id);
    const othersKey = (await createShareLink(admin, org.orgId, other.id)).key;
    // another organization's published site, with a space of its own
    const elsewhere = http(sut.baseUrl, org.stranger.token);
    const otherOrg = await createOrganization(sut, org.stranger, 'Other published');
    const otherOrgSite = await createPublishedSite(elsewhere, otherOrg, [(await createSpace(elsewhere, otherOrg, { title: 'Theirs' })).id], 'public');
    const made = await admin.post(`/v1/orgs/${org.orgId}/sites/${site.id}/redirects`, { source: '/there', destination: EXTERNAL });
    expect(made.status).toBe(201);
    clients = {
      ...callerClients(sut, org),
      siteToken: http(sut.baseUrl, await siteToken(admin, site, key)),
      otherSiteToken: http(sut.baseUrl, await siteToken(admin, other, othersKey)),
      otherOrgSiteToken: http(sut.baseUrl, await siteToken(elsewhere, otherOrgSite)),
    };
    ctx = { orgId: org.orgId, siteId: site.id, siteSpaceId: site.siteSpaceIds[0], redirectId: made.body.id, key, admin };
  }, 180000);
  afterAll(async () => {
    writer?.close();
  });

  it('answers each caller as written, never showing the share key', async () => {
    const mismatches = await matrixMismatches(ROWS, WHO, clients, ctx, (res) => expect(JSON.stringify(res.body ?? '')).not.toContain(ctx.key));
    expect(mismatches).toEqual([]);
  });
});
