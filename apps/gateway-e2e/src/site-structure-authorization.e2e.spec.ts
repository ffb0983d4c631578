import { assertMatchesSpec, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace, unknownId } from './content-fixtures';
import { organizationWithEveryRole } from './fixtures';
import { HttpResult } from './http-client';
import { assertPublishedSite } from './published-site-check';
import { Caller, CALLERS, callerClients, Client, matrixMismatches, MatrixRow } from './matrix';

interface Ctx {
  orgId: string;
  /** a published public site with a section (and its site space), a group and a second section */
  site: string;
  section: string;
  other: string;
  group: string;
  siteSpace: string;
  space: string;
  /** a space only the admin can read */
  secret: string;
  /** a published share-link site, and an active key of it */
  shared: string;
  key: string;
  /** an unpublished site */
  draft: string;
  /** new items for deletes and removals (made by the admin) */
  freshSection(): Promise<string>;
  freshGroup(): Promise<string>;
  freshSiteSpace(): Promise<string>;
  groupedSection(): Promise<{ group: string; section: string }>;
}

const SITE = '/orgs/{organizationId}/sites/{siteId}';

/** Checks a JSON success against the official 0.130.0 operation, and answers the result. */
const official = (method: string, path: string) => (res: HttpResult) => {
  if (res.status === 200 || res.status === 201) assertMatchesSpec('0.130.0', method, path, res.status, res.body);
  return res;
};

/** A published site, checked against 0.202.0 and 0.130.0 (assertPublishedSite). */
const published = (res: HttpResult) => {
  if (res.status === 200) assertPublishedSite(res.body);
  return res;
};

const site = (x: Ctx, rest = '', id = x.site) => `/v1/orgs/${x.orgId}/sites/${id}${rest}`;

// Reading of the expectations (site-policy.ts): every member with a role reads a site's structure
// (view); edit and up change it. A guest and a member of another organization see no site: 404, as
// for one that does not exist — except through an active share key of a published share-link site
// (read-only, to anyone signed in), and the published view of a published public site (anyone
// signed in). A body or query the schema refuses is a 400 for everyone signed in; an id in the body
// naming nothing of the site (or a space the caller cannot read) is a 400 once the caller may edit.
// No token or a bad one: 401.
//                                                                                                              admin create review edit comment read guest stranger bad none
const ROWS: Array<MatrixRow<Ctx>> = [
  {
    name: 'GET sections (listSiteSections)',
    call: (c, x) => c.get(site(x, '/sections')).then(official('get', `${SITE}/sections`)),
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'GET sections of the share-link site with its key',
    call: (c, x) => c.get(site(x, `/sections?shareKey=${encodeURIComponent(x.key)}`, x.shared)).then(official('get', `${SITE}/sections`)),
    expect: [200, 200, 200, 200, 200, 200, 200, 200, 401, 401],
  },
  {
    name: 'GET sections of the share-link site with a wrong key',
    call: (c, x) => c.get(site(x, '/sections?shareKey=wrong', x.shared)),
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'GET sections of the public site with the other site’s key',
    call: (c, x) => c.get(site(x, `/sections?shareKey=${encodeURIComponent(x.key)}`)),
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'POST sections (addSectionToSite)',
    call: (c, x) => c.post(site(x, '/sections'), { spaceId: x.space, title: 'Matrix section' }).then(official('post', `${SITE}/sections`)),
    expect: [201, 201, 201, 201, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'POST sections with a space only the admin can read',
    call: (c, x) => c.post(site(x, '/sections'), { spaceId: x.secret }),
    expect: [201, 400, 400, 400, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'POST sections with an unknown field',
    call: (c, x) => c.post(site(x, '/sections'), { spaceId: x.space, path: 'p' }),
    expect: [400, 400, 400, 400, 400, 400, 400, 400, 401, 401],
  },
  {
    name: 'PATCH section (updateSiteSectionById)',
    call: (c, x) =>
      c.patch(site(x, `/sections/${x.section}`), { description: 'Matrix', condition: 'visitor.claims.plan === "pro"' }).then(official('patch', `${SITE}/sections/{siteSectionId}`)),
    expect: [200, 200, 200, 200, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'PATCH section with a condition that does not parse',
    call: (c, x) => c.patch(site(x, `/sections/${x.section}`), { condition: 'visitor.claims.plan = 1' }),
    expect: [400, 400, 400, 400, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'PATCH a section that does not exist',
    call: (c, x) => c.patch(site(x, `/sections/${unknownId()}`), { title: 'Nope' }),
    expect: [404, 404, 404, 404, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'DELETE section (deleteSiteSectionById)',
    call: async (c, x) => c.delete(site(x, `/sections/${await x.freshSection()}`)),
    expect: [205, 205, 205, 205, 403, 403, 404, 404, 401, 401],
  },
  { name: 'DELETE a section that does not exist', call: (c, x) => c.delete(site(x, `/sections/${unknownId()}`)), expect: [204, 204, 204, 204, 403, 403, 404, 404, 401, 401] },
  {
    name: 'POST section/move (moveSiteSection)',
    call: (c, x) =>
      c
        .post(site(x, `/sections/${x.other}/move`), { position: { before: { type: 'site-section', siteSection: x.section } } })
        .then(official('post', `${SITE}/sections/{siteSectionId}/move`)),
    expect: [200, 200, 200, 200, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'GET section-groups (listSiteSectionGroups)',
    call: (c, x) => c.get(site(x, '/section-groups')).then(official('get', `${SITE}/section-groups`)),
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'POST section-groups (addSectionGroupToSite)',
    call: (c, x) => c.post(site(x, '/section-groups'), { title: 'Matrix group' }).then(official('post', `${SITE}/section-groups`)),
    expect: [201, 201, 201, 201, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'POST section-groups naming a section of nothing',
    call: (c, x) => c.post(site(x, '/section-groups'), { title: 'Matrix group', sections: [unknownId()] }),
    expect: [400, 400, 400, 400, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'PATCH section-group (updateSiteSectionGroupById)',
    call: (c, x) => c.patch(site(x, `/section-groups/${x.group}`), { title: 'Matrix group', icon: null }).then(official('patch', `${SITE}/section-groups/{siteSectionGroupId}`)),
    expect: [200, 200, 200, 200, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'DELETE section-group (deleteSiteSectionGroupById)',
    call: async (c, x) => c.delete(site(x, `/section-groups/${await x.freshGroup()}`)),
    expect: [205, 205, 205, 205, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'DELETE a section group that does not exist',
    call: (c, x) => c.delete(site(x, `/section-groups/${unknownId()}`)),
    expect: [204, 204, 204, 204, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'POST section-group/sections (addSectionToGroup)',
    call: (c, x) => c.post(site(x, `/section-groups/${x.group}/sections`), { sectionId: x.other }).then(official('post', `${SITE}/section-groups/{siteSectionGroupId}/sections`)),
    expect: [201, 201, 201, 201, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'DELETE section-group/sections/{id} (removeSectionFromGroup)',
    call: async (c, x) => {
      const g = await x.groupedSection();
      return c.delete(site(x, `/section-groups/${g.group}/sections/${g.section}`));
    },
    expect: [205, 205, 205, 205, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'DELETE a section that is not in the group',
    call: (c, x) => c.delete(site(x, `/section-groups/${x.group}/sections/${x.section}`)),
    expect: [204, 204, 204, 204, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'POST section-group/move (moveSiteSectionGroup)',
    call: (c, x) => c.post(site(x, `/section-groups/${x.group}/move`), {}).then(official('post', `${SITE}/section-groups/{siteSectionGroupId}/move`)),
    expect: [200, 200, 200, 200, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'GET site-spaces (listSiteSpaces)',
    call: (c, x) => c.get(site(x, '/site-spaces?default=true')).then(official('get', `${SITE}/site-spaces`)),
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'GET site-spaces of the share-link site with its key',
    call: (c, x) => c.get(site(x, `/site-spaces?shareKey=${encodeURIComponent(x.key)}`, x.shared)).then(official('get', `${SITE}/site-spaces`)),
    expect: [200, 200, 200, 200, 200, 200, 200, 200, 401, 401],
  },
  {
    name: 'POST site-spaces (addSpaceToSite)',
    call: (c, x) => c.post(site(x, '/site-spaces'), { spaceId: x.space, sectionId: x.section }).then(official('post', `${SITE}/site-spaces`)),
    expect: [201, 201, 201, 201, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'POST site-spaces into a section of nothing',
    call: (c, x) => c.post(site(x, '/site-spaces'), { spaceId: x.space, sectionId: unknownId() }),
    expect: [400, 400, 400, 400, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'PATCH site-space (updateSiteSpaceById)',
    call: (c, x) => c.patch(site(x, `/site-spaces/${x.siteSpace}`), { condition: 'visitor.claims.unsigned.isBeta' }).then(official('patch', `${SITE}/site-spaces/{siteSpaceId}`)),
    expect: [200, 200, 200, 200, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'DELETE site-space (deleteSiteSpaceById)',
    call: async (c, x) => c.delete(site(x, `/site-spaces/${await x.freshSiteSpace()}`)),
    expect: [205, 205, 205, 205, 403, 403, 404, 404, 401, 401],
  },
  { name: 'DELETE a site space that does not exist', call: (c, x) => c.delete(site(x, `/site-spaces/${unknownId()}`)), expect: [204, 204, 204, 204, 403, 403, 404, 404, 401, 401] },
  {
    name: 'POST site-space/move (moveSiteSpace)',
    call: (c, x) => c.post(site(x, `/site-spaces/${x.siteSpace}/move`), { position: {} }).then(official('post', `${SITE}/site-spaces/{siteSpaceId}/move`)),
    expect: [200, 200, 200, 200, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'GET structure (getSiteStructure)',
    call: (c, x) => c.get(site(x, '/structure')).then(official('get', `${SITE}/structure`)),
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'GET structure of the share-link site with its key',
    call: (c, x) => c.get(site(x, `/structure?shareKey=${encodeURIComponent(x.key)}`, x.shared)).then(official('get', `${SITE}/structure`)),
    expect: [200, 200, 200, 200, 200, 200, 200, 200, 401, 401],
  },
  {
    name: 'PATCH structure/sort (sortSiteStructure)',
    call: (c, x) => c.patch(site(x, '/structure/sort'), { item: { type: 'site-section-group', id: x.group }, position: {} }).then(official('patch', `${SITE}/structure/sort`)),
    expect: [200, 200, 200, 200, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'PATCH structure/sort next to an item of another level',
    call: (c, x) => c.patch(site(x, '/structure/sort'), { item: { type: 'site-section', id: x.section }, position: { before: { type: 'site-space', id: x.siteSpace } } }),
    expect: [400, 400, 400, 400, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'PATCH structure/sort without a position',
    call: (c, x) => c.patch(site(x, '/structure/sort'), { item: { type: 'site-section', id: x.section } }),
    expect: [400, 400, 400, 400, 400, 400, 400, 400, 401, 401],
  },
  {
    name: 'GET published of the public site (getPublishedContentSite)',
    call: (c, x) => c.get(site(x, '/published')).then(published),
    expect: [200, 200, 200, 200, 200, 200, 200, 200, 401, 401],
  },
  {
    name: 'GET published of the share-link site',
    call: (c, x) => c.get(site(x, '/published', x.shared)).then(published),
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'GET published of the share-link site with its key',
    call: (c, x) => c.get(site(x, `/published?shareKey=${encodeURIComponent(x.key)}`, x.shared)).then(published),
    expect: [200, 200, 200, 200, 200, 200, 200, 200, 401, 401],
  },
  { name: 'GET published of an unpublished site', call: (c, x) => c.get(site(x, '/published', x.draft)), expect: [404, 404, 404, 404, 404, 404, 404, 404, 401, 401] },
  { name: 'GET structure of a site that does not exist', call: (c, x) => c.get(site(x, '/structure', unknownId())), expect: [404, 404, 404, 404, 404, 404, 404, 404, 401, 401] },
];

describe('site structure authorization (roles × endpoints)', () => {
  let sut: SystemUnderTest;
  let clients: Record<Caller, Client>;
  let ctx: Ctx;

  // Longer than the tier: seeds an organization with a member per role, sites and share links through the API.
  beforeAll(async () => {
    sut = await sharedSystem();
    const org = await organizationWithEveryRole(sut);
    clients = callerClients(sut, org);
    const admin = clients.admin;
    const ok = async (res: Promise<HttpResult>, status = 201) => {
      const r = await res;
      if (r.status !== status) throw new Error(`seeding: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body;
    };
    const space = (await createSpace(admin, org.orgId, { title: 'Matrix space' })).id as string;
    const secret = (await createSpace(admin, org.orgId, { title: 'Admins only' })).id as string;
    await ok(admin.patch(`/v1/spaces/${secret}`, { defaultLevel: null }), 200);
    const sites = `/v1/orgs/${org.orgId}/sites`;
    const main = await ok(admin.post(sites, { title: 'Matrix structure' }));
    const at = `${sites}/${main.id}`;
    const section = await ok(admin.post(`${at}/sections`, { spaceId: space, title: 'First' }));
    const other = await ok(admin.post(`${at}/sections`, { spaceId: space, title: 'Second' }));
    const group = await ok(admin.post(`${at}/section-groups`, { title: 'Group' }));
    await ok(admin.post(`${at}/publish`), 200);
    const shared = await ok(admin.post(sites, { title: 'Matrix shared', visibility: 'share-link', spaces: [space] }));
    await ok(admin.post(`${sites}/${shared.id}/publish`), 200);
    const link = await ok(admin.post(`${sites}/${shared.id}/share-links`, { name: 'Matrix' }));
    const draft = await ok(admin.post(sites, { title: 'Matrix draft', spaces: [space] }));
    ctx = {
      orgId: org.orgId,
      site: main.id,
      section: section.id,
      other: other.id,
      group: group.id,
      siteSpace: section.siteSpaces[0].id,
      space,
      secret,
      shared: shared.id,
      key: (link.urls.published as string).split('/~share/')[1],
      draft: draft.id,
      freshSection: async () => (await ok(admin.post(`${at}/sections`, { spaceId: space, title: 'To delete' }))).id,
      freshGroup: async () => (await ok(admin.post(`${at}/section-groups`, { title: 'To delete' }))).id,
      freshSiteSpace: async () => (await ok(admin.post(`${at}/site-spaces`, { spaceId: space, sectionId: section.id }))).id,
      groupedSection: async () => {
        const s = (await ok(admin.post(`${at}/sections`, { spaceId: space, title: 'Grouped' }))).id;
        const g = (await ok(admin.post(`${at}/section-groups`, { title: 'Holding', sections: [s] }))).id;
        return { group: g, section: s };
      },
    };
  }, 180000);

  it('answers each caller as written, and no answer carries a share key', async () => {
    const mismatches = await matrixMismatches(ROWS, CALLERS, clients, ctx, (res) => {
      if (JSON.stringify(res.body ?? '').includes(ctx.key)) throw new Error(`an answer carries the share key: ${JSON.stringify(res.body)}`);
    });
    expect(mismatches).toEqual([]);
  });
});
