import { GitBookAPI } from '@gitbook/api';
import { assertErrorBody, assertMatchesSpec, eventually, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace } from './content-fixtures';
import { createUser, TestUser } from './fixtures';
import { Client, http } from './http-client';
import { organizationWith } from './team-fixtures';
import { assertPublishedSite } from './published-site-check';

const OLD = '0.130.0';
const SITE = '/orgs/{organizationId}/sites/{siteId}';
const SECTIONS = `${SITE}/sections`;
const SECTION = `${SITE}/sections/{siteSectionId}`;
const GROUPS = `${SITE}/section-groups`;
const GROUP = `${SITE}/section-groups/{siteSectionGroupId}`;
const SITE_SPACES = `${SITE}/site-spaces`;
const SITE_SPACE = `${SITE}/site-spaces/{siteSpaceId}`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** The official answer, checked against the 0.130.0 operation it answers. */
function official<T>(method: string, path: string, res: { status: number; data: T }, status = 200): T {
  expect(res.status).toBe(status);
  assertMatchesSpec(OLD, method, path, status, res.data);
  return res.data;
}

describe('a site’s structure through the gateway (sections, section groups, site spaces, structure, published site)', () => {
  let sut: SystemUnderTest;
  let owner: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let orgId: string;
  let admin: Client;
  let api: GitBookAPI;

  beforeAll(async () => {
    sut = await sharedSystem();
    owner = await createUser(sut, 'structure-owner');
    const org = await organizationWith(sut, owner, { reader: 'read' });
    orgId = org.orgId;
    reader = org.users.reader;
    outsider = await createUser(sut, 'structure-outsider');
    admin = http(sut.baseUrl, owner.token);
    api = new GitBookAPI({ endpoint: sut.baseUrl, authToken: owner.token });
  }, 120_000);

  const space = async (title: string) => (await createSpace(admin, orgId, { title })).id as string;
  async function newSite(body: object = {}): Promise<Json> {
    const res = await admin.post(`/v1/orgs/${orgId}/sites`, { title: 'Structured docs', ...body });
    if (res.status !== 201) throw new Error(`create site: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  it('builds sections with the official client: paths from titles, defaults, updates, moves, deletes', async () => {
    const site = await newSite();
    const [guide, reference, extras] = [await space('User Guide'), await space('API Reference'), await space('Extras')];
    const first = official('post', SECTIONS, await api.orgs.addSectionToSite(orgId, site.id, { spaceId: guide }), 201) as Json;
    expect(first).toMatchObject({ object: 'site-section', title: 'User Guide', path: 'user-guide', default: true });
    expect(first.urls.location).toBe(`${sut.baseUrl}/v1/orgs/${orgId}/sites/${site.id}/sections/${first.id}`);
    expect(first.siteSpaces).toEqual([
      expect.objectContaining({ object: 'site-space', path: 'user-guide', default: true, section: first.id, space: expect.objectContaining({ id: guide, title: 'User Guide' }) }),
    ]);
    const second = official('post', SECTIONS, await api.orgs.addSectionToSite(orgId, site.id, { spaceId: reference, title: 'Reference', icon: 'book' }), 201) as Json;
    expect(second).toMatchObject({ title: 'Reference', path: 'reference', default: false, icon: 'book' });
    const third = official('post', SECTIONS, await api.orgs.addSectionToSite(orgId, site.id, { spaceId: guide, title: null }), 201) as Json;
    expect(third.path).toBe('user-guide-2');

    const listed = official('get', SECTIONS, await api.orgs.listSiteSections(orgId, site.id, { limit: 2 }));
    expect(listed.items.map((s) => s.id)).toEqual([first.id, second.id]);
    expect(listed.count).toBe(3);
    const rest = official('get', SECTIONS, await api.orgs.listSiteSections(orgId, site.id, { limit: 2, page: listed.next!.page }));
    expect(rest.items.map((s) => s.id)).toEqual([third.id]);

    const variant = official('post', SITE_SPACES, await api.orgs.addSpaceToSite(orgId, site.id, { spaceId: extras, sectionId: second.id }), 201) as Json;
    expect(variant).toMatchObject({ section: second.id, path: 'extras', default: false });
    const updated = official(
      'patch',
      SECTION,
      await api.orgs.updateSiteSectionById(orgId, site.id, second.id, {
        title: 'API',
        path: 'api',
        defaultSiteSpace: variant.id,
        condition: "visitor.claims.plan === 'pro'",
        description: 'The API',
      }),
    ) as Json;
    expect(updated).toMatchObject({ title: 'API', path: 'api', condition: "visitor.claims.plan === 'pro'", description: 'The API' });
    expect(updated.siteSpaces.find((ss: Json) => ss.id === variant.id).default).toBe(true);
    const cleared = official('patch', SECTION, await api.orgs.updateSiteSectionById(orgId, site.id, second.id, { condition: null, description: null, icon: null })) as Json;
    expect(cleared.condition).toBeUndefined();
    expect(cleared.icon).toBeUndefined();

    const bad = await admin.patch(`/v1/orgs/${orgId}/sites/${site.id}/sections/${second.id}`, { condition: 'visitor.claims.plan ==' });
    expect(bad.status).toBe(400);
    assertErrorBody(400, bad.body);
    expect(bad.body.error.message).toBe('Condition: unexpected end of condition at 22');
    const taken = await admin.patch(`/v1/orgs/${orgId}/sites/${site.id}/sections/${second.id}`, { path: 'user-guide' });
    expect(taken.status).toBe(409);
    expect((await admin.patch(`/v1/orgs/${orgId}/sites/${site.id}/sections/${second.id}`, { path: 'Not A Slug' })).status).toBe(400);

    const moved = official(
      'post',
      `${SECTION}/move`,
      await api.orgs.moveSiteSection(orgId, site.id, third.id, { position: { before: { type: 'site-section', siteSection: first.id } } }),
    ) as Json;
    expect(moved.id).toBe(third.id);
    const order = official('get', `${SITE}/structure`, await api.orgs.getSiteStructure(orgId, site.id)) as Json;
    expect(order.type).toBe('sections');
    expect(order.structure.map((i: Json) => i.id)).toEqual([third.id, first.id, second.id]);

    expect((await api.orgs.deleteSiteSectionById(orgId, site.id, first.id)).status).toBe(205);
    expect((await admin.delete(`/v1/orgs/${orgId}/sites/${site.id}/sections/${first.id}`)).status).toBe(204);
    const after = official('get', SECTIONS, await api.orgs.listSiteSections(orgId, site.id));
    expect(after.items.map((s) => [s.id, s.default])).toEqual([
      [third.id, true],
      [second.id, false],
    ]);
    expect((await admin.get(`/v1/orgs/${orgId}/sites/${site.id}`)).body.siteSpaces).toBe(3);
  });

  it('groups sections, sorts any item, and keeps site spaces at the root of a site without sections', async () => {
    const [a, b, c] = [await space('Alpha'), await space('Beta'), await space('Gamma')];
    const flat = await newSite({ spaces: [a, b] });
    const root = official('get', `${SITE}/structure`, await api.orgs.getSiteStructure(orgId, flat.id)) as Json;
    expect(root.type).toBe('siteSpaces');
    expect(root.structure.map((ss: Json) => [ss.path, ss.default])).toEqual([
      ['alpha', true],
      ['beta', false],
    ]);
    const added = official('post', SITE_SPACES, await api.orgs.addSpaceToSite(orgId, flat.id, { spaceId: c }), 201) as Json;
    expect(added).toMatchObject({ path: 'gamma', default: false });
    expect(added.section).toBeUndefined();
    const sorted = official(
      'patch',
      `${SITE}/structure/sort`,
      await api.orgs.sortSiteStructure(orgId, flat.id, { item: { type: 'site-space', id: added.id }, position: { before: { type: 'site-space', id: root.structure[0].id } } }),
    ) as Json;
    expect(sorted.id).toBe(added.id);
    const defaults = official('get', SITE_SPACES, await api.orgs.listSiteSpaces(orgId, flat.id, { default: true }));
    expect(defaults.items.map((ss) => ss.path)).toEqual(['alpha']);
    const others = official('get', SITE_SPACES, await api.orgs.listSiteSpaces(orgId, flat.id, { default: false }));
    expect(others.items.map((ss) => ss.path)).toEqual(['gamma', 'beta']);
    official('post', `${SITE_SPACE}/move`, await api.orgs.moveSiteSpace(orgId, flat.id, added.id, { position: { after: { type: 'site-space', siteSpace: others.items[1].id } } }));
    const patched = official('patch', SITE_SPACE, await api.orgs.updateSiteSpaceById(orgId, flat.id, added.id, { path: 'g', condition: 'visitor.claims.unsigned.isBeta' })) as Json;
    expect(patched).toMatchObject({ path: 'g', condition: 'visitor.claims.unsigned.isBeta' });
    expect((await api.orgs.deleteSiteSpaceById(orgId, flat.id, added.id)).status).toBe(205);
    expect((await admin.delete(`/v1/orgs/${orgId}/sites/${flat.id}/site-spaces/${added.id}`)).status).toBe(204);

    // the first section takes the root's site spaces in
    const section = official('post', SECTIONS, await api.orgs.addSectionToSite(orgId, flat.id, { spaceId: c, title: 'Gamma docs' }), 201) as Json;
    const withSections = official('get', `${SITE}/structure`, await api.orgs.getSiteStructure(orgId, flat.id)) as Json;
    expect(withSections.structure.map((i: Json) => i.title)).toEqual(['Structured docs', 'Gamma docs']);
    expect(withSections.structure[0].siteSpaces.map((ss: Json) => ss.path)).toEqual(['alpha', 'beta']);

    const group = official('post', GROUPS, await api.orgs.addSectionGroupToSite(orgId, flat.id, { title: 'More', sections: [section.id] }), 201) as Json;
    expect(group).toMatchObject({ object: 'site-section-group', title: 'More' });
    expect(group.sections.map((s: Json) => [s.id, s.sectionGroup])).toEqual([[section.id, group.id]]);
    const renamed = official('patch', GROUP, await api.orgs.updateSiteSectionGroupById(orgId, flat.id, group.id, { title: 'Further', icon: 'plus' })) as Json;
    expect(renamed).toMatchObject({ title: 'Further', icon: 'plus' });
    const top = withSections.structure[0].id;
    official('post', `${GROUP}/move`, await api.orgs.moveSiteSectionGroup(orgId, flat.id, group.id, { position: { before: { type: 'site-section', id: top } } }));
    expect((official('get', `${SITE}/structure`, await api.orgs.getSiteStructure(orgId, flat.id)) as Json).structure.map((i: Json) => i.object)).toEqual([
      'site-section-group',
      'site-section',
    ]);
    expect((await api.orgs.removeSectionFromGroup(orgId, flat.id, group.id, section.id)).status).toBe(205);
    expect((await admin.delete(`/v1/orgs/${orgId}/sites/${flat.id}/section-groups/${group.id}/sections/${section.id}`)).status).toBe(204);
    const regrouped = official('post', `${GROUP}/sections`, await api.orgs.addSectionToGroup(orgId, flat.id, group.id, { sectionId: section.id }), 201) as Json;
    expect(regrouped.sections.map((s: Json) => s.id)).toEqual([section.id]);
    const groups = official('get', GROUPS, await api.orgs.listSiteSectionGroups(orgId, flat.id));
    expect(groups.items.map((g) => g.id)).toEqual([group.id]);
    expect((await api.orgs.deleteSiteSectionGroupById(orgId, flat.id, group.id)).status).toBe(205);
    expect((await admin.delete(`/v1/orgs/${orgId}/sites/${flat.id}/section-groups/${group.id}`)).status).toBe(204);
    const ungrouped = official('get', `${SITE}/structure`, await api.orgs.getSiteStructure(orgId, flat.id)) as Json;
    expect(ungrouped.structure.map((i: Json) => i.id)).toEqual([section.id, top]);
    const across = await admin.patch(`/v1/orgs/${orgId}/sites/${flat.id}/structure/sort`, {
      item: { type: 'site-section', id: section.id },
      position: { after: { type: 'site-space', id: withSections.structure[0].siteSpaces[0].id } },
    });
    expect(across.status).toBe(400);
    assertErrorBody(400, across.body);
  });

  it('hides the site spaces of a deleted space until it is restored', async () => {
    const [kept, gone] = [await space('Kept'), await space('Gone')];
    const site = await newSite({ spaces: [kept, gone] });
    expect((await admin.delete(`/v1/spaces/${gone}`)).status).toBe(205);
    await eventually(async () => {
      const listed = official('get', SITE_SPACES, await api.orgs.listSiteSpaces(orgId, site.id));
      expect(listed.items.map((ss) => ss.space.id)).toEqual([kept]);
      expect((await admin.get(`/v1/orgs/${orgId}/sites/${site.id}`)).body.siteSpaces).toBe(1);
    });
    expect((await admin.post(`/v1/spaces/${gone}/restore`)).status).toBe(200);
    await eventually(async () => {
      const listed = official('get', SITE_SPACES, await api.orgs.listSiteSpaces(orgId, site.id));
      expect(listed.items.map((ss) => ss.space.id)).toEqual([kept, gone]);
    });
  });

  it('answers the published site, and opens a published share-link site to holders of an active key only', async () => {
    const guide = await space('Published guide');
    const site = await newSite({ spaces: [guide] });
    await expect(api.orgs.getPublishedContentSite(orgId, site.id)).rejects.toMatchObject({ code: 404 });
    expect((await admin.post(`/v1/orgs/${orgId}/sites/${site.id}/publish`)).status).toBe(200);
    const answered = await api.orgs.getPublishedContentSite(orgId, site.id);
    expect(answered.status).toBe(200);
    assertPublishedSite(answered.data);
    const published = answered.data as Json;
    expect(published).toMatchObject({ object: 'published-content-site', site: { id: site.id, published: true }, structure: { type: 'siteSpaces' }, scripts: [] });
    expect(published.customizations.siteSpaces).toEqual({});
    expect(published.structure.structure[0].space.permissions.edit).toBe(false);
    const stranger = http(sut.baseUrl, outsider.token);
    expect((await stranger.get(`/v1/orgs/${orgId}/sites/${site.id}/published`)).status).toBe(200);

    expect((await admin.patch(`/v1/orgs/${orgId}/sites/${site.id}`, { visibility: 'share-link' })).status).toBe(200);
    const link = await admin.post(`/v1/orgs/${orgId}/sites/${site.id}/share-links`, { name: 'Partners' });
    const key = (link.body.urls.published as string).split('/~share/')[1];
    expect(key).toBeTruthy();
    const base = `/v1/orgs/${orgId}/sites/${site.id}`;
    for (const path of ['/published', '/sections', '/site-spaces', '/structure']) {
      const refused = await stranger.get(`${base}${path}`);
      expect(refused.status).toBe(404);
      assertErrorBody(404, refused.body);
      const wrong = await stranger.get(`${base}${path}?shareKey=not-the-key`);
      expect(wrong.status).toBe(404);
      expect(JSON.stringify(wrong.body)).not.toContain('not-the-key');
      const opened = await stranger.get(`${base}${path}?shareKey=${encodeURIComponent(key)}`);
      expect(opened.status).toBe(200);
      expect(JSON.stringify(opened.body)).not.toContain(key);
    }
    const opened = await stranger.get(`${base}/site-spaces?shareKey=${encodeURIComponent(key)}`);
    assertMatchesSpec(OLD, 'get', SITE_SPACES, 200, opened.body);
    expect(opened.body.items[0].space.permissions).toMatchObject({ view: true, edit: false, admin: false });
    expect((await stranger.post(`${base}/site-spaces?shareKey=${encodeURIComponent(key)}`, { spaceId: guide })).status).toBe(400);
    expect((await stranger.post(`${base}/site-spaces`, { spaceId: guide })).status).toBe(404);
    expect((await http(sut.baseUrl, reader.token).get(`${base}/structure`)).status).toBe(200);
    expect((await admin.patch(`${base}/share-links/${link.body.id}`, { active: false })).status).toBe(200);
    expect((await stranger.get(`${base}/structure?shareKey=${encodeURIComponent(key)}`)).status).toBe(404);
  });
});
