import { startServiceUnderTest } from '@bindery/shared/testing';
import type { Caller } from '@bindery/platform/grpc';
import { loadStructure } from '@bindery/sites/data-access';
import { structureProblems } from '@bindery/sites/domain';
import { hex, SitesHarness, startSites } from './testing/sites-harness';

describe('site spaces, the structure and the published site (in process, real MongoDB)', () => {
  let h: SitesHarness;
  const org = `org-${hex()}`;
  let editor: Caller;
  let reader: Caller;
  let outsider: Caller;

  beforeAll(async () => {
    h = await startSites(startServiceUnderTest);
    editor = await h.member(org, 'edit');
    reader = await h.member(org, 'read');
    outsider = await h.member(`org-${hex()}`, 'admin');
    for (const [id, title] of [
      ['ss-v1', 'Version 1'],
      ['ss-v2', 'Version 2'],
      ['ss-v1b', 'Version 1'],
      ['ss-other', 'Other'],
    ])
      h.content.addSpace(id, org, title);
  }, 60_000);
  afterAll(() => h?.stop());

  const as = (caller: Caller) => ({ caller });
  const siteRef = (siteId: string) => ({ organizationId: org, siteId, page: undefined });
  const stored = async (siteId: string) => {
    const site = (await h.deps.sites.get(org, siteId))!;
    return { site, state: await loadStructure(h.deps, site) };
  };

  it('adds site spaces at the root of a site without sections: paths unique, the first the default, counted', async () => {
    const site = await h.site(org);
    const ref = siteRef(site._id);
    const a = await h.clients.structure.addSiteSpace({ ...ref, spaceId: 'ss-v1' }, as(editor));
    const b = await h.clients.structure.addSiteSpace({ ...ref, spaceId: 'ss-v1b' }, as(editor));
    const c = await h.clients.structure.addSiteSpace({ ...ref, spaceId: 'ss-v2' }, as(editor));
    expect([a, b, c].map((x) => [x.path, x.default, x.sectionId])).toEqual([
      ['version-1', true, undefined],
      ['version-1-2', false, undefined],
      ['version-2', false, undefined],
    ]);
    const structure = await h.clients.structure.getStructure(ref, as(reader));
    expect(structure.type).toBe('siteSpaces');
    expect(structure.items.map((i) => i.siteSpace!.id)).toEqual([a.id, b.id, c.id]);
    const { site: after } = await stored(site._id);
    expect(after).toMatchObject({ siteSpaces: 3, defaultSiteSpaceId: a.id });
  });

  it('adds into the given section, else the default one; refuses a section that is not the site’s', async () => {
    const site = await h.site(org);
    const ref = siteRef(site._id);
    const first = await h.clients.structure.createSection({ ...ref, spaceId: 'ss-v1' }, as(editor));
    const second = await h.clients.structure.createSection({ ...ref, spaceId: 'ss-v2' }, as(editor));
    const intoDefault = await h.clients.structure.addSiteSpace({ ...ref, spaceId: 'ss-v1b' }, as(editor));
    expect(intoDefault).toMatchObject({ sectionId: first.id, path: 'version-1-2', default: false });
    const intoSecond = await h.clients.structure.addSiteSpace({ ...ref, spaceId: 'ss-v1', sectionId: second.id }, as(editor));
    expect(intoSecond).toMatchObject({ sectionId: second.id, path: 'version-1' });
    await expect(h.clients.structure.addSiteSpace({ ...ref, spaceId: 'ss-v1', sectionId: 'nope' }, as(editor))).rejects.toMatchObject({
      kind: 'invalid',
      message: 'sectionId names no section of this site.',
    });
    const defaults = await h.clients.structure.listSiteSpaces({ ...ref, default: true }, as(reader));
    expect(defaults.items.map((x) => x.id).sort()).toEqual([first.siteSpaces[0].id, second.siteSpaces[0].id].sort());
    expect(defaults.page?.count).toBe(2);
    const others = await h.clients.structure.listSiteSpaces({ ...ref, default: false }, as(reader));
    expect(others.items.map((x) => x.id).sort()).toEqual([intoDefault.id, intoSecond.id].sort());
    const all = await h.clients.structure.listSiteSpaces({ ...ref, page: { page: '', limit: 3 } }, as(reader));
    expect(all.items).toHaveLength(3);
    expect(all.page).toMatchObject({ count: 4, nextPage: expect.any(String) });
  });

  it('updates a site space: path (409 when taken in its section), condition (validated, null removes), space', async () => {
    const site = await h.site(org);
    const ref = siteRef(site._id);
    const a = await h.clients.structure.addSiteSpace({ ...ref, spaceId: 'ss-v1' }, as(editor));
    const b = await h.clients.structure.addSiteSpace({ ...ref, spaceId: 'ss-v2' }, as(editor));
    const changed = await h.clients.structure.updateSiteSpace(
      { ...ref, siteSpaceId: a.id, path: 'v1', condition: { value: 'visitor.claims.unsigned.isBeta' }, spaceId: 'ss-other' },
      as(editor),
    );
    expect(changed).toMatchObject({ path: 'v1', condition: 'visitor.claims.unsigned.isBeta', spaceId: 'ss-other', title: 'Other' });
    expect((await h.clients.structure.updateSiteSpace({ ...ref, siteSpaceId: a.id, condition: {} }, as(editor))).condition).toBeUndefined();
    await expect(h.clients.structure.updateSiteSpace({ ...ref, siteSpaceId: b.id, path: 'v1' }, as(editor))).rejects.toMatchObject({ kind: 'conflict' });
    await expect(h.clients.structure.updateSiteSpace({ ...ref, siteSpaceId: b.id, condition: { value: 'visitor.claims.a = 1' } }, as(editor))).rejects.toMatchObject({
      kind: 'invalid',
      message: "Condition: unexpected character '=' at 17",
    });
    await expect(h.clients.structure.updateSiteSpace({ ...ref, siteSpaceId: b.id, spaceId: 'no-such-space' }, as(editor))).rejects.toMatchObject({ kind: 'invalid' });
  });

  it('deletes site spaces (the default moves to the next), moves them within their section, and keeps the orders dense', async () => {
    const site = await h.site(org);
    const ref = siteRef(site._id);
    const section = await h.clients.structure.createSection({ ...ref, spaceId: 'ss-v1' }, as(editor));
    const b = await h.clients.structure.addSiteSpace({ ...ref, spaceId: 'ss-v2' }, as(editor));
    const c = await h.clients.structure.addSiteSpace({ ...ref, spaceId: 'ss-other' }, as(editor));
    const moved = await h.clients.structure.moveSiteSpace({ ...ref, id: c.id, position: { before: { type: 'site-space', id: b.id } } }, as(editor));
    expect(moved.id).toBe(c.id);
    const sorted = await h.clients.structure.sortStructure({ ...ref, item: { type: 'site-space', id: section.siteSpaces[0].id }, position: {} }, as(editor));
    expect(sorted.siteSpace?.id).toBe(section.siteSpaces[0].id);
    expect((await h.clients.structure.listSections(ref, as(reader))).items[0].siteSpaces.map((x) => x.id)).toEqual([c.id, b.id, section.siteSpaces[0].id]);
    expect(await h.clients.structure.deleteSiteSpace({ ...ref, id: section.siteSpaces[0].id }, as(editor))).toEqual({ deleted: true });
    expect(await h.clients.structure.deleteSiteSpace({ ...ref, id: section.siteSpaces[0].id }, as(editor))).toEqual({ deleted: false });
    const { site: after, state } = await stored(site._id);
    expect(after.siteSpaces).toBe(2);
    expect(state.sections[0].defaultSiteSpaceId).toBe(c.id);
    expect(structureProblems(state)).toEqual([]);
  });

  it('leaves out of every answer a site space whose space the reader cannot read', async () => {
    const site = await h.site(org);
    const ref = siteRef(site._id);
    h.content.addSpace('ss-private', org, 'Private', [editor.userId]);
    const section = await h.clients.structure.createSection({ ...ref, spaceId: 'ss-v1' }, as(editor));
    const hidden = await h.clients.structure.addSiteSpace({ ...ref, spaceId: 'ss-private' }, as(editor));
    const asEditor = await h.clients.structure.listSiteSpaces(ref, as(editor));
    expect(asEditor.items.map((x) => x.id)).toContain(hidden.id);
    const asReader = await h.clients.structure.listSiteSpaces(ref, as(reader));
    expect(asReader.items.map((x) => x.id)).toEqual([section.siteSpaces[0].id]);
    const structure = await h.clients.structure.getStructure(ref, as(reader));
    expect(structure.items[0].section!.siteSpaces.map((x) => x.id)).toEqual([section.siteSpaces[0].id]);
    const sections = await h.clients.structure.listSections(ref, as(reader));
    expect(sections.items[0].siteSpaces.map((x) => x.id)).toEqual([section.siteSpaces[0].id]);
    const boss = await h.member(org, 'admin');
    await expect(h.clients.structure.updateSiteSpace({ ...ref, siteSpaceId: hidden.id, path: 'x' }, as(boss))).rejects.toMatchObject({ kind: 'not_found' });
    await expect(h.clients.structure.sortStructure({ ...ref, item: { type: 'site-space', id: hidden.id }, position: {} }, as(boss))).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('opens a published share-link site read-only to anyone holding an active key, and nothing else', async () => {
    const site = await h.site(org, { visibility: 'share-link', published: true });
    const ref = siteRef(site._id);
    const section = await h.clients.structure.createSection({ ...ref, spaceId: 'ss-v1' }, as(editor));
    const key = await h.shareLink(org, site._id);
    const inactive = await h.shareLink(org, site._id, false);
    const otherSite = await h.site(org, { visibility: 'share-link', published: true });
    const otherKey = await h.shareLink(org, otherSite._id);
    const withKey = { ...ref, shareKey: key };
    const sections = await h.clients.structure.listSections(withKey, as(outsider));
    expect(sections.items.map((s) => s.id)).toEqual([section.id]);
    const space = sections.items[0].siteSpaces[0].space!;
    expect(space.permissions).toMatchObject({ view: true, edit: false, admin: false, comment: false });
    expect((await h.clients.structure.listSiteSpaces(withKey, as(outsider))).items).toHaveLength(1);
    expect((await h.clients.structure.getStructure(withKey, as(outsider))).items).toHaveLength(1);
    expect((await h.clients.structure.listSectionGroups(withKey, as(outsider))).items).toEqual([]);
    for (const shareKey of [inactive, otherKey, 'not-a-key', undefined])
      await expect(h.clients.structure.listSections({ ...ref, shareKey }, as(outsider))).rejects.toMatchObject({ kind: 'not_found', message: 'Site not found.' });
    await expect(h.clients.structure.createSection({ ...ref, shareKey: key, spaceId: 'ss-v2' } as never, as(outsider))).rejects.toMatchObject({ kind: 'not_found' });
    await h.deps.sites.changeSettings(org, site._id, { set: { published: false }, unset: [], at: new Date().toISOString() }, []);
    await expect(h.clients.structure.listSections(withKey, as(outsider))).rejects.toMatchObject({ kind: 'not_found' });
    await h.deps.sites.changeSettings(org, site._id, { set: { published: true, visibility: 'public' }, unset: [], at: new Date().toISOString() }, []);
    await expect(h.clients.structure.listSections(withKey, as(outsider))).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('answers the published site: 404 unless published; members, and outsiders of public sites or with a share key', async () => {
    const site = await h.site(org, { title: 'Published docs', published: false, visibility: 'public' });
    const ref = siteRef(site._id);
    const section = await h.clients.structure.createSection({ ...ref, spaceId: 'ss-v1' }, as(editor));
    await h.clients.structure.createSectionGroup({ ...ref, title: 'Group', sectionIds: [] }, as(editor));
    await expect(h.clients.structure.getPublishedSite(ref, as(reader))).rejects.toMatchObject({ kind: 'not_found' });
    await h.deps.sites.changeSettings(org, site._id, { set: { published: true }, unset: [], at: new Date().toISOString() }, []);
    const published = await h.clients.structure.getPublishedSite(ref, as(reader));
    expect(published.site).toMatchObject({ id: site._id, title: 'Published docs', published: true, defaultSpace: 'ss-v1', permissions: { view: true, edit: false } });
    expect(published.site!.publishedUrl).toMatch(new RegExp(`/${site.basename}$`));
    expect(published.structure!.type).toBe('sections');
    expect(published.structure!.items.map((i) => i.section?.id ?? i.sectionGroup?.title)).toEqual([section.id, 'Group']);
    expect(published.structure!.items[0].section!.publishedUrl).toBe(published.site!.publishedUrl);
    expect(published.structure!.items[0].section!.siteSpaces[0].space!.permissions!.edit).toBe(false);
    const asOutsider = await h.clients.structure.getPublishedSite(ref, as(outsider));
    expect(asOutsider.site!.permissions).toEqual({ view: false, edit: false, publish: false, admin: false });
    await h.deps.sites.changeSettings(org, site._id, { set: { visibility: 'share-link' }, unset: [], at: new Date().toISOString() }, []);
    await expect(h.clients.structure.getPublishedSite(ref, as(outsider))).rejects.toMatchObject({ kind: 'not_found' });
    const key = await h.shareLink(org, site._id);
    await expect(h.clients.structure.getPublishedSite({ ...ref, shareKey: key }, as(outsider))).resolves.toMatchObject({ site: { id: site._id } });
    await h.deps.sites.changeSettings(org, site._id, { set: { visibility: 'visitor-auth' }, unset: [], at: new Date().toISOString() }, []);
    await expect(h.clients.structure.getPublishedSite({ ...ref, shareKey: key }, as(outsider))).rejects.toMatchObject({ kind: 'not_found' });
    await expect(h.clients.structure.getPublishedSite(ref, as(reader))).resolves.toBeDefined();
  });

  it('gives published URLs only while the site is published: the default section and site space at the site’s own URL', async () => {
    const site = await h.site(org, { published: true, visibility: 'public' });
    const ref = siteRef(site._id);
    const first = await h.clients.structure.createSection({ ...ref, spaceId: 'ss-v1' }, as(editor));
    const second = await h.clients.structure.createSection({ ...ref, spaceId: 'ss-v2' }, as(editor));
    const variant = await h.clients.structure.addSiteSpace({ ...ref, spaceId: 'ss-other', sectionId: second.id }, as(editor));
    const base = `http://127.0.0.1:8090/${org}/${site.basename}`;
    expect(first.publishedUrl).toBe(base);
    expect(first.siteSpaces[0].publishedUrl).toBe(base);
    expect(second.publishedUrl).toBe(`${base}/version-2`);
    expect(variant.publishedUrl).toBe(`${base}/version-2/other`);
    const unpublished = await h.site(org);
    const s = await h.clients.structure.createSection({ ...siteRef(unpublished._id), spaceId: 'ss-v1' }, as(editor));
    expect(s.publishedUrl).toBeUndefined();
    expect(s.siteSpaces[0].publishedUrl).toBeUndefined();
  });
});
