import { startServiceUnderTest } from '@bindery/shared/testing';
import { structureProblems } from '@bindery/sites/domain';
import { loadStructure } from '@bindery/sites/data-access';
import type { Caller } from '@bindery/platform/grpc';
import { hex, SitesHarness, startSites } from './testing/sites-harness';

describe('sections and section groups (in process, real MongoDB)', () => {
  let h: SitesHarness;
  const org = `org-${hex()}`;
  let editor: Caller;
  let reader: Caller;

  beforeAll(async () => {
    h = await startSites(startServiceUnderTest);
    editor = await h.member(org, 'edit');
    reader = await h.member(org, 'read');
    for (const [id, title] of [
      ['sp-guide', 'User Guide'],
      ['sp-api', 'API Reference'],
      ['sp-guide2', 'User Guide'],
      ['sp-x', 'X'],
      ['sp-extra', 'Extras'],
    ])
      h.content.addSpace(id, org, title);
  }, 60_000);
  afterAll(() => h?.stop());

  const as = (caller: Caller) => ({ caller });
  const stored = async (siteId: string) => {
    const site = (await h.deps.sites.get(org, siteId))!;
    return { site, state: await loadStructure(h.deps, site) };
  };

  it('adds sections: title from the space, path from the title made unique, the first the default', async () => {
    const site = await h.site(org);
    const ref = { organizationId: org, siteId: site._id, page: undefined };
    const guide = await h.clients.structure.createSection({ ...ref, spaceId: 'sp-guide' }, as(editor));
    expect(guide).toMatchObject({ title: 'User Guide', path: 'user-guide', default: true });
    expect(guide.siteSpaces).toEqual([expect.objectContaining({ spaceId: 'sp-guide', path: 'user-guide', default: true, title: 'User Guide', sectionId: guide.id })]);
    expect(guide.siteSpaces[0].space).toMatchObject({ id: 'sp-guide', title: 'User Guide' });
    const again = await h.clients.structure.createSection({ ...ref, spaceId: 'sp-guide2' }, as(editor));
    expect(again).toMatchObject({ title: 'User Guide', path: 'user-guide-2', default: false });
    const short = await h.clients.structure.createSection({ ...ref, spaceId: 'sp-x', icon: 'gear' }, as(editor));
    expect(short).toMatchObject({ title: 'Untitled section', path: 'untitled-section', icon: 'gear' });
    const named = await h.clients.structure.createSection({ ...ref, spaceId: 'sp-api', title: 'The API' }, as(editor));
    expect(named).toMatchObject({ title: 'The API', path: 'the-api' });
    const { site: after, state } = await stored(site._id);
    expect(after).toMatchObject({ siteSpaces: 4, defaultSectionId: guide.id, structureVersion: 4 });
    expect(state.sections.map((s) => [s._id, s.order])).toEqual(
      expect.arrayContaining([
        [guide.id, 0],
        [again.id, 1],
        [short.id, 2],
        [named.id, 3],
      ]),
    );
    expect(structureProblems(state)).toEqual([]);
  });

  it('refuses a space the caller cannot read, or of another organization, as a bad request', async () => {
    const site = await h.site(org);
    h.content.addSpace('sp-secret', org, 'Secret', ['someone-else']);
    h.content.addSpace('sp-elsewhere', `other-${hex()}`, 'Elsewhere');
    for (const spaceId of ['sp-secret', 'sp-elsewhere', 'sp-missing'])
      await expect(h.clients.structure.createSection({ organizationId: org, siteId: site._id, spaceId }, as(editor))).rejects.toMatchObject({
        kind: 'invalid',
        message: 'spaceId names no space of this organization that you can read.',
      });
  });

  it('lists sections a page at a time with their site spaces, for readers', async () => {
    const site = await h.site(org);
    const ref = { organizationId: org, siteId: site._id, page: undefined };
    for (const spaceId of ['sp-guide', 'sp-api', 'sp-extra']) await h.clients.structure.createSection({ ...ref, spaceId }, as(editor));
    const first = await h.clients.structure.listSections({ ...ref, page: { page: '', limit: 2 } }, as(reader));
    expect(first.items.map((s) => s.title)).toEqual(['User Guide', 'API Reference']);
    expect(first.page).toMatchObject({ count: 3 });
    const second = await h.clients.structure.listSections({ ...ref, page: { page: first.page!.nextPage!, limit: 2 } }, as(reader));
    expect(second.items.map((s) => s.title)).toEqual(['Extras']);
    expect(second.page?.nextPage).toBeUndefined();
    expect(second.items[0].siteSpaces).toHaveLength(1);
  });

  it('updates a section: title, path (409 when taken), default site space (its own), condition, icon, description', async () => {
    const site = await h.site(org);
    const ref = { organizationId: org, siteId: site._id, page: undefined };
    const a = await h.clients.structure.createSection({ ...ref, spaceId: 'sp-guide' }, as(editor));
    const b = await h.clients.structure.createSection({ ...ref, spaceId: 'sp-api' }, as(editor));
    const second = await h.clients.structure.addSiteSpace({ ...ref, spaceId: 'sp-extra', sectionId: a.id }, as(editor));
    const updated = await h.clients.structure.updateSection(
      {
        ...ref,
        sectionId: a.id,
        title: 'Guides',
        path: 'guides',
        defaultSiteSpace: second.id,
        condition: { value: "visitor.claims.plan === 'pro'" },
        icon: { value: 'book' },
        description: { value: 'All the guides' },
      },
      as(editor),
    );
    expect(updated).toMatchObject({ title: 'Guides', path: 'guides', condition: "visitor.claims.plan === 'pro'", icon: 'book', description: 'All the guides' });
    expect(updated.siteSpaces.map((ss) => [ss.id, ss.default])).toEqual([
      [a.siteSpaces[0].id, false],
      [second.id, true],
    ]);
    const cleared = await h.clients.structure.updateSection({ ...ref, sectionId: a.id, condition: {}, icon: {}, description: {} }, as(editor));
    expect(cleared.condition).toBeUndefined();
    expect(cleared.icon).toBeUndefined();
    expect(cleared.description).toBeUndefined();
    await expect(h.clients.structure.updateSection({ ...ref, sectionId: b.id, path: 'guides' }, as(editor))).rejects.toMatchObject({ kind: 'conflict' });
    await expect(h.clients.structure.updateSection({ ...ref, sectionId: b.id, defaultSiteSpace: second.id }, as(editor))).rejects.toMatchObject({
      kind: 'invalid',
      message: 'defaultSiteSpace must be a site space of this section.',
    });
    await expect(h.clients.structure.updateSection({ ...ref, sectionId: b.id, condition: { value: 'visitor.claims.plan ==' } }, as(editor))).rejects.toMatchObject({
      kind: 'invalid',
      message: 'Condition: unexpected end of condition at 22',
    });
    for (const path of ['a/b', '~share', 'Guides'])
      await expect(h.clients.structure.updateSection({ ...ref, sectionId: b.id, path }, as(editor))).rejects.toMatchObject({ kind: 'invalid' });
    await expect(h.clients.structure.updateSection({ ...ref, sectionId: 'nope', title: 'Nope' }, as(editor))).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('deletes a section with its site spaces; the default moves to the first section left; a second delete is a no-op', async () => {
    const site = await h.site(org);
    const ref = { organizationId: org, siteId: site._id, page: undefined };
    const a = await h.clients.structure.createSection({ ...ref, spaceId: 'sp-guide' }, as(editor));
    await h.clients.structure.addSiteSpace({ ...ref, spaceId: 'sp-extra', sectionId: a.id }, as(editor));
    const b = await h.clients.structure.createSection({ ...ref, spaceId: 'sp-api' }, as(editor));
    expect(await h.clients.structure.deleteSection({ ...ref, id: a.id }, as(editor))).toEqual({ deleted: true });
    expect(await h.clients.structure.deleteSection({ ...ref, id: a.id }, as(editor))).toEqual({ deleted: false });
    const { site: after, state } = await stored(site._id);
    expect(after).toMatchObject({ siteSpaces: 1, defaultSectionId: b.id });
    expect(state.siteSpaces.map((ss) => ss.sectionId)).toEqual([b.id]);
    expect(state.sections.map((s) => [s._id, s.order])).toEqual([[b.id, 0]]);
    expect(await h.clients.structure.deleteSection({ ...ref, id: b.id }, as(editor))).toEqual({ deleted: true });
    const { site: empty } = await stored(site._id);
    expect(empty.siteSpaces).toBe(0);
    expect(empty.defaultSectionId).toBeUndefined();
  });

  it('takes the site spaces at the root into a first section when the first section is added', async () => {
    const site = await h.site(org, { title: 'Handbook' });
    const ref = { organizationId: org, siteId: site._id, page: undefined };
    const root1 = await h.clients.structure.addSiteSpace({ ...ref, spaceId: 'sp-guide' }, as(editor));
    const root2 = await h.clients.structure.addSiteSpace({ ...ref, spaceId: 'sp-api' }, as(editor));
    expect(root1).toMatchObject({ default: true, sectionId: undefined });
    const added = await h.clients.structure.createSection({ ...ref, spaceId: 'sp-extra' }, as(editor));
    const structure = await h.clients.structure.getStructure(ref, as(reader));
    expect(structure.type).toBe('sections');
    expect(structure.items.map((i) => i.section?.title)).toEqual(['Handbook', 'Extras']);
    expect(structure.items[0].section).toMatchObject({ default: true, path: 'handbook' });
    expect(structure.items[0].section!.siteSpaces.map((ss) => [ss.id, ss.default])).toEqual([
      [root1.id, true],
      [root2.id, false],
    ]);
    expect(added.default).toBe(false);
    const { site: after, state } = await stored(site._id);
    expect(after.defaultSiteSpaceId).toBeUndefined();
    expect(after.siteSpaces).toBe(3);
    expect(structureProblems(state)).toEqual([]);
  });

  it('groups sections, moves them in and out, and gives them back in place when the group goes', async () => {
    const site = await h.site(org);
    const ref = { organizationId: org, siteId: site._id, page: undefined };
    const sections = [];
    for (const spaceId of ['sp-guide', 'sp-api', 'sp-extra']) sections.push(await h.clients.structure.createSection({ ...ref, spaceId }, as(editor)));
    const [s1, s2, s3] = sections;
    const group = await h.clients.structure.createSectionGroup({ ...ref, title: 'Reference', icon: 'books', sectionIds: [s2.id] }, as(editor));
    expect(group).toMatchObject({ title: 'Reference', icon: 'books' });
    expect(group.sections.map((s) => [s.id, s.sectionGroupId])).toEqual([[s2.id, group.id]]);
    const outline = async () =>
      (await h.clients.structure.getStructure(ref, as(reader))).items.map((i) => (i.section ? i.section.id : `[${i.sectionGroup!.sections.map((s) => s.id).join(',')}]`));
    expect(await outline()).toEqual([s1.id, `[${s2.id}]`, s3.id]);
    const withThird = await h.clients.structure.addSectionToGroup({ ...ref, sectionGroupId: group.id, sectionId: s3.id }, as(editor));
    expect(withThird.sections.map((s) => s.id)).toEqual([s2.id, s3.id]);
    expect(await outline()).toEqual([s1.id, `[${s2.id},${s3.id}]`]);
    expect(await h.clients.structure.removeSectionFromGroup({ ...ref, sectionGroupId: group.id, sectionId: s2.id }, as(editor))).toEqual({ deleted: true });
    expect(await h.clients.structure.removeSectionFromGroup({ ...ref, sectionGroupId: group.id, sectionId: s2.id }, as(editor))).toEqual({ deleted: false });
    expect(await outline()).toEqual([s1.id, `[${s3.id}]`, s2.id]);
    const moved = await h.clients.structure.moveSectionGroup({ ...ref, id: group.id, position: { before: { type: 'site-section', id: s1.id } } }, as(editor));
    expect(moved.id).toBe(group.id);
    expect(await outline()).toEqual([`[${s3.id}]`, s1.id, s2.id]);
    const renamed = await h.clients.structure.updateSectionGroup({ ...ref, sectionGroupId: group.id, title: 'Refs', icon: {} }, as(editor));
    expect(renamed).toMatchObject({ title: 'Refs', icon: undefined });
    const listed = await h.clients.structure.listSectionGroups(ref, as(reader));
    expect(listed.items.map((g) => [g.id, g.sections.map((s) => s.id)])).toEqual([[group.id, [s3.id]]]);
    expect(await h.clients.structure.deleteSectionGroup({ ...ref, id: group.id }, as(editor))).toEqual({ deleted: true });
    expect(await h.clients.structure.deleteSectionGroup({ ...ref, id: group.id }, as(editor))).toEqual({ deleted: false });
    expect(await outline()).toEqual([s3.id, s1.id, s2.id]);
    await expect(h.clients.structure.createSectionGroup({ ...ref, title: 'Bad', sectionIds: ['nope'] }, as(editor))).rejects.toMatchObject({ kind: 'invalid' });
    const { state } = await stored(site._id);
    expect(structureProblems(state)).toEqual([]);
  });

  it('moves sections with the deprecated move and the sort, within their level only', async () => {
    const site = await h.site(org);
    const ref = { organizationId: org, siteId: site._id, page: undefined };
    const sections = [];
    for (const spaceId of ['sp-guide', 'sp-api', 'sp-extra']) sections.push(await h.clients.structure.createSection({ ...ref, spaceId }, as(editor)));
    const [s1, s2, s3] = sections;
    await h.clients.structure.moveSection({ ...ref, id: s3.id, position: { before: { type: 'site-section', id: s1.id } } }, as(editor));
    const sorted = await h.clients.structure.sortStructure({ ...ref, item: { type: 'site-section', id: s1.id }, position: {} }, as(editor));
    expect(sorted.section?.id).toBe(s1.id);
    const order = (await h.clients.structure.getStructure(ref, as(reader))).items.map((i) => i.section!.id);
    expect(order).toEqual([s3.id, s2.id, s1.id]);
    await expect(
      h.clients.structure.sortStructure({ ...ref, item: { type: 'site-section', id: s1.id }, position: { after: { type: 'site-space', id: s2.siteSpaces[0].id } } }, as(editor)),
    ).rejects.toMatchObject({ kind: 'invalid' });
    await expect(h.clients.structure.sortStructure({ ...ref, item: { type: 'site-page', id: s1.id }, position: {} }, as(editor))).rejects.toMatchObject({ kind: 'invalid' });
  });

  it('lets readers read and only editors change; outsiders find no site', async () => {
    const site = await h.site(org);
    const ref = { organizationId: org, siteId: site._id, page: undefined };
    const section = await h.clients.structure.createSection({ ...ref, spaceId: 'sp-guide' }, as(editor));
    const commenter = await h.member(org, 'comment');
    const outsider = await h.member(`org-${hex()}`, 'admin');
    await expect(h.clients.structure.listSections(ref, as(commenter))).resolves.toBeDefined();
    await expect(h.clients.structure.createSection({ ...ref, spaceId: 'sp-api' }, as(reader))).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(h.clients.structure.deleteSection({ ...ref, id: section.id }, as(commenter))).rejects.toMatchObject({ kind: 'forbidden' });
    for (const call of [
      () => h.clients.structure.listSections(ref, as(outsider)),
      () => h.clients.structure.getStructure(ref, as(outsider)),
      () => h.clients.structure.deleteSection({ ...ref, id: section.id }, as(outsider)),
      () => h.clients.structure.listSections({ organizationId: org, siteId: 'no-such-site', page: undefined }, as(reader)),
    ])
      await expect(call()).rejects.toMatchObject({ kind: 'not_found' });
  });
});
