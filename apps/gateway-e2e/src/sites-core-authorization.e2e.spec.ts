import { assertMatchesSpec, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace, unknownId } from './content-fixtures';
import { organizationWithEveryRole } from './fixtures';
import { HttpResult } from './http-client';
import { Caller, CALLERS, callerClients, Client, matrixMismatches, MatrixRow } from './matrix';

interface Ctx {
  orgId: string;
  /** a site of the organization, its space and a site space id of another site */
  site: string;
  space: string;
  taken: string;
  shareLink: string;
  /** a site of the stranger's organization */
  foreignSite: string;
  /** a new site (for deletes), a new share link of `site` */
  freshSite(): Promise<string>;
  freshShareLink(): Promise<string>;
}

const SITE = '/orgs/{organizationId}/sites/{siteId}';

/** Checks a JSON success against the official 0.130.0 operation, and answers the result. */
const official = (method: string, path: string) => (res: HttpResult) => {
  if (res.status === 200 || res.status === 201) assertMatchesSpec('0.130.0', method, path, res.status, res.body);
  return res;
};

const sites = (x: Ctx) => `/v1/orgs/${x.orgId}/sites`;
const site = (x: Ctx, rest = '') => `/v1/orgs/${x.orgId}/sites/${x.site}${rest}`;

// Reading of the expectations (site-policy.ts): every member with a role sees the organization's
// sites (view); edit and up change titles and defaults; create and up create, publish and
// unpublish; admins change address and access settings, the adaptive schema and share links, and
// delete. A guest and a member of another organization see no site: 404, as for one that does not
// exist. A body the schema refuses is a 400 for every caller who is signed in. No token or a bad one: 401.
//                                                                                                         admin create review edit comment read guest stranger bad none
const ROWS: Array<MatrixRow<Ctx>> = [
  {
    name: 'GET sites (listSites)',
    call: (c, x) => c.get(sites(x)).then(official('get', '/orgs/{organizationId}/sites')),
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'GET sites?published=true&type=basic',
    call: (c, x) => c.get(`${sites(x)}?published=true&type=basic&type=premium`).then(official('get', '/orgs/{organizationId}/sites')),
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'POST sites (createSite) with a space',
    call: (c, x) => c.post(sites(x), { title: 'Matrix site', spaces: [x.space] }).then(official('post', '/orgs/{organizationId}/sites')),
    expect: [201, 201, 403, 403, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'POST sites with a new empty space',
    call: (c, x) => c.post(sites(x), { spaces: 'empty' }).then(official('post', '/orgs/{organizationId}/sites')),
    expect: [201, 201, 403, 403, 403, 403, 404, 404, 401, 401],
  },
  { name: 'POST sites with an unknown field', call: (c, x) => c.post(sites(x), { title: 'Matrix', owner: 'me' }), expect: [400, 400, 400, 400, 400, 400, 400, 400, 401, 401] },
  { name: 'GET site (getSiteById)', call: (c, x) => c.get(site(x)).then(official('get', SITE)), expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401] },
  { name: 'GET a site that does not exist', call: (c, x) => c.get(`${sites(x)}/${unknownId()}`), expect: [404, 404, 404, 404, 404, 404, 404, 404, 401, 401] },
  { name: "GET another organization's site here", call: (c, x) => c.get(`${sites(x)}/${x.foreignSite}`), expect: [404, 404, 404, 404, 404, 404, 404, 404, 401, 401] },
  {
    name: 'PATCH site title (updateSiteById)',
    call: (c, x) => c.patch(site(x), { title: 'Matrix site' }).then(official('patch', SITE)),
    expect: [200, 200, 200, 200, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'PATCH site visibility and agents context',
    call: (c, x) => c.patch(site(x), { visibility: 'unlisted', agentsContext: 'included' }).then(official('patch', SITE)),
    expect: [200, 403, 403, 403, 403, 403, 404, 404, 401, 401],
  },
  { name: "PATCH site basename to another site's", call: (c, x) => c.patch(site(x), { basename: x.taken }), expect: [409, 403, 403, 403, 403, 403, 404, 404, 401, 401] },
  {
    name: 'PATCH site defaultSiteSpace naming nothing',
    call: (c, x) => c.patch(site(x), { defaultSiteSpace: unknownId() }),
    expect: [400, 400, 400, 400, 403, 403, 404, 404, 401, 401],
  },
  { name: 'PATCH site with a read-only field', call: (c, x) => c.patch(site(x), { published: true }), expect: [400, 400, 400, 400, 400, 400, 400, 400, 401, 401] },
  { name: 'DELETE a site (deleteSiteById)', call: async (c, x) => c.delete(`${sites(x)}/${await x.freshSite()}`), expect: [205, 403, 403, 403, 403, 403, 404, 404, 401, 401] },
  { name: 'DELETE a site that does not exist', call: (c, x) => c.delete(`${sites(x)}/${unknownId()}`), expect: [204, 403, 403, 403, 403, 403, 404, 404, 401, 401] },
  {
    name: 'POST site/publish (publishSite)',
    call: (c, x) => c.post(site(x, '/publish')).then(official('post', `${SITE}/publish`)),
    expect: [200, 200, 403, 403, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'POST site/unpublish (unpublishSite)',
    call: (c, x) => c.post(site(x, '/unpublish')).then(official('post', `${SITE}/unpublish`)),
    expect: [200, 200, 403, 403, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'GET site/adaptive-schema (getSiteAdaptiveSchema)',
    call: (c, x) => c.get(site(x, '/adaptive-schema')).then(official('get', `${SITE}/adaptive-schema`)),
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'PUT site/adaptive-schema (updateSiteAdaptiveSchema)',
    call: (c, x) =>
      c
        .put(site(x, '/adaptive-schema'), {
          jsonSchema: { type: 'object', properties: { isStaff: { type: 'boolean', description: 'Staff' } }, additionalProperties: false },
        })
        .then(official('put', `${SITE}/adaptive-schema`)),
    expect: [200, 403, 403, 403, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'PUT site/adaptive-schema not of the official shape',
    call: (c, x) => c.put(site(x, '/adaptive-schema'), { jsonSchema: { type: 'object', properties: {}, additionalProperties: true } }),
    expect: [400, 400, 400, 400, 400, 400, 400, 400, 401, 401],
  },
  {
    name: 'GET site/adaptive-schema/template-conditions',
    call: (c, x) => c.get(site(x, '/adaptive-schema/template-conditions')).then(official('get', `${SITE}/adaptive-schema/template-conditions`)),
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'GET site/share-links (listSiteShareLinks)',
    call: (c, x) => c.get(site(x, '/share-links')).then(official('get', `${SITE}/share-links`)),
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'POST site/share-links (createSiteShareLink)',
    call: (c, x) => c.post(site(x, '/share-links'), { name: 'Matrix' }).then(official('post', `${SITE}/share-links`)),
    expect: [201, 403, 403, 403, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'PATCH site/share-links/{id} (updateSiteShareLinkById)',
    call: (c, x) => c.patch(site(x, `/share-links/${x.shareLink}`), { active: true }).then(official('patch', `${SITE}/share-links/{shareLinkId}`)),
    expect: [200, 403, 403, 403, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'PATCH a share link that does not exist',
    call: (c, x) => c.patch(site(x, `/share-links/${unknownId()}`), { active: false }),
    expect: [404, 403, 403, 403, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'DELETE site/share-links/{id} (deleteSiteShareLinkById)',
    call: async (c, x) => c.delete(site(x, `/share-links/${await x.freshShareLink()}`)),
    expect: [205, 403, 403, 403, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'DELETE a share link that does not exist',
    call: (c, x) => c.delete(site(x, `/share-links/${unknownId()}`)),
    expect: [204, 403, 403, 403, 403, 403, 404, 404, 401, 401],
  },
];

describe('sites authorization (roles × endpoints)', () => {
  let sut: SystemUnderTest;
  let clients: Record<Caller, Client>;
  let ctx: Ctx;

  // Longer than the tier: seeds an organization with a member per role through the API.
  beforeAll(async () => {
    sut = await sharedSystem();
    const org = await organizationWithEveryRole(sut);
    clients = callerClients(sut, org);
    const admin = clients.admin;
    const made = async (c: Client, orgId: string, body: object) => {
      const res = await c.post(`/v1/orgs/${orgId}/sites`, body);
      if (res.status !== 201) throw new Error(`create site: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body as { id: string; basename: string };
    };
    const space = (await createSpace(admin, org.orgId, { title: 'Matrix space' })).id as string;
    const main = await made(admin, org.orgId, { title: 'Matrix site', spaces: [space] });
    const other = await made(admin, org.orgId, { title: 'Other matrix site' });
    const strangerOrg = (await clients.stranger.get('/v1/orgs')).body.items[0].id as string;
    const foreign = await made(clients.stranger, strangerOrg, { title: 'Foreign site' });
    const newLink = async () => {
      const res = await admin.post(`/v1/orgs/${org.orgId}/sites/${main.id}/share-links`, { name: 'Seeded' });
      if (res.status !== 201) throw new Error(`create share link: ${res.status}`);
      return res.body.id as string;
    };
    ctx = {
      orgId: org.orgId,
      site: main.id,
      space,
      taken: other.basename,
      shareLink: await newLink(),
      foreignSite: foreign.id,
      freshSite: async () => (await made(admin, org.orgId, { title: 'To delete' })).id,
      freshShareLink: newLink,
    };
  }, 180000);

  it('answers each caller as written, and no answer to a non-admin carries a share key', async () => {
    const keyFree = (res: { status: number; body: unknown }) => JSON.stringify(res.body ?? '').includes('bshare_');
    const mismatches = await matrixMismatches(ROWS, CALLERS, clients, ctx);
    expect(mismatches).toEqual([]);
    for (const who of CALLERS.filter((c) => c !== 'admin')) {
      const res = await clients[who].get(site(ctx, '/share-links'));
      expect(keyFree(res)).toBe(false);
    }
    expect(keyFree(await clients.admin.get(site(ctx, '/share-links')))).toBe(true);
  });
});
