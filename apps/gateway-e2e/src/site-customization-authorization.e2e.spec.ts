import { assertMatchesSpec, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace, unknownId } from './content-fixtures';
import { organizationWithEveryRole } from './fixtures';
import { HttpResult } from './http-client';
import { Caller, CALLERS, callerClients, Client, matrixMismatches, MatrixRow } from './matrix';
import { siteSpaceIdsOf } from './site-fixtures';
import { customizationBody } from './site-customization-fixtures';

interface Ctx {
  orgId: string;
  site: string;
  siteSpace: string;
  foreignSite: string;
  admin: Client;
}

const SITE = '/orgs/{organizationId}/sites/{siteId}';
const SITE_SPACE = `${SITE}/site-spaces/{siteSpaceId}/customization`;

/** Checks a 200 against the official 0.202.0 operation (the release whose customization the API serves). */
const official = (method: string, path: string) => (res: HttpResult) => {
  if (res.status === 200) assertMatchesSpec('0.202.0', method, path, res.status, res.body);
  return res;
};

const custom = (x: Ctx) => `/v1/orgs/${x.orgId}/sites/${x.site}/customization`;
const spaceCustom = (x: Ctx, siteSpace = x.siteSpace) => `/v1/orgs/${x.orgId}/sites/${x.site}/site-spaces/${siteSpace}/customization`;
const override = { title: 'Matrix variant', styling: { primaryColor: { light: '#7a3e00', dark: '#ffb86b' } } };

// Reading of the expectations (site-policy.ts): every member with a role reads a site's
// customization (view); whoever may update the site (edit and up) writes it. A guest and a member of
// another organization see no site: 404. A body the official schema refuses is a 400 for every caller
// who is signed in. No token or a bad one: 401.
//                                                                                                              admin create review edit comment read guest stranger bad none
const ROWS: Array<MatrixRow<Ctx>> = [
  {
    name: 'GET customization (getSiteCustomizationById)',
    call: (c, x) => c.get(custom(x)).then(official('get', `${SITE}/customization`)),
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'PUT customization (updateSiteCustomizationById)',
    call: (c, x) => c.put(custom(x), customizationBody({ title: 'Matrix brand' })).then(official('put', `${SITE}/customization`)),
    expect: [200, 200, 200, 200, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'PUT customization with a colour that is not one',
    call: (c, x) => {
      const styling = customizationBody().styling as Record<string, unknown>;
      return c.put(custom(x), customizationBody({ styling: { ...styling, primaryColor: { light: 'red;}body{display:none', dark: '#000000' } } }));
    },
    expect: [400, 400, 400, 400, 400, 400, 400, 400, 401, 401],
  },
  {
    name: "GET another organization's site customization here",
    call: (c, x) => c.get(`/v1/orgs/${x.orgId}/sites/${x.foreignSite}/customization`),
    expect: [404, 404, 404, 404, 404, 404, 404, 404, 401, 401],
  },
  {
    name: 'GET site-space customization (getSiteSpaceCustomizationById)',
    call: (c, x) => c.get(spaceCustom(x)).then(official('get', SITE_SPACE)),
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'GET the customization of a site space that does not exist',
    call: (c, x) => c.get(spaceCustom(x, unknownId())),
    expect: [404, 404, 404, 404, 404, 404, 404, 404, 401, 401],
  },
  {
    name: 'PATCH site-space customization (overrideSiteSpaceCustomizationById)',
    call: (c, x) => c.patch(spaceCustom(x), override).then(official('patch', SITE_SPACE)),
    expect: [200, 200, 200, 200, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'PATCH site-space customization with an unknown field',
    call: (c, x) => c.patch(spaceCustom(x), { styling: { colour: '#000000' } }),
    expect: [400, 400, 400, 400, 400, 400, 400, 400, 401, 401],
  },
  {
    name: 'DELETE site-space customization (deleteSiteSpaceCustomizationById) with overrides',
    call: async (c, x) => {
      if ((await x.admin.patch(spaceCustom(x), override)).status !== 200) throw new Error('seed override');
      return c.delete(spaceCustom(x));
    },
    expect: [205, 205, 205, 205, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'DELETE site-space customization without overrides',
    call: async (c, x) => {
      await x.admin.delete(spaceCustom(x));
      return c.delete(spaceCustom(x));
    },
    expect: [204, 204, 204, 204, 403, 403, 404, 404, 401, 401],
  },
];

describe('site customization authorization (roles × endpoints)', () => {
  let sut: SystemUnderTest;
  let clients: Record<Caller, Client>;
  let ctx: Ctx;

  beforeAll(async () => {
    sut = await sharedSystem();
    const org = await organizationWithEveryRole(sut);
    clients = callerClients(sut, org);
    const admin = clients.admin;
    const made = async (c: Client, orgId: string, body: object) => {
      const res = await c.post(`/v1/orgs/${orgId}/sites`, body);
      if (res.status !== 201) throw new Error(`create site: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.id as string;
    };
    const space = (await createSpace(admin, org.orgId, { title: 'Brand space' })).id as string;
    const site = await made(admin, org.orgId, { title: 'Brand site', spaces: [space] });
    const strangerOrg = (await clients.stranger.get('/v1/orgs')).body.items[0].id as string;
    ctx = {
      orgId: org.orgId,
      site,
      siteSpace: (await siteSpaceIdsOf(admin, org.orgId, site))[0],
      foreignSite: await made(clients.stranger, strangerOrg, { title: 'Foreign brand site' }),
      admin,
    };
  }, 180000);

  it('answers each caller as written', async () => {
    expect(await matrixMismatches(ROWS, CALLERS, clients, ctx)).toEqual([]);
  });
});
