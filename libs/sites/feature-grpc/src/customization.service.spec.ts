import type { EventEnvelope } from '@bindery/platform/events';
import { infraEnv, readEvents, startServiceUnderTest } from '@bindery/shared/testing';
import type { Caller } from '@bindery/platform/grpc';
import { COLLECTIONS } from '@bindery/sites/data-access';
import { hex, SitesHarness, startSites } from './testing/sites-harness';

describe('site customization (in process, real MongoDB)', () => {
  let h: SitesHarness;
  const org = `org-${hex()}`;
  const namespace = `s${hex()}.`;
  let editor: Caller;
  let reader: Caller;
  let admin: Caller;

  beforeAll(async () => {
    h = await startSites(startServiceUnderTest, { KAFKA_NAMESPACE: namespace });
    editor = await h.member(org, 'edit');
    reader = await h.member(org, 'read');
    admin = await h.member(org, 'admin');
    h.content.addSpace('cs-en', org, 'English');
    h.content.addSpace('cs-de', org, 'Deutsch');
  }, 60_000);
  afterAll(() => h?.stop());

  const as = (caller: Caller) => ({ caller });

  it('a published read carries the site settings and the effective settings of each site space with overrides', async () => {
    const site = await h.site(org, { published: true });
    const ref = { organizationId: org, siteId: site._id };
    const en = await h.clients.structure.addSiteSpace({ ...ref, spaceId: 'cs-en' }, as(editor));
    const de = await h.clients.structure.addSiteSpace({ ...ref, spaceId: 'cs-de' }, as(editor));
    const before = await h.clients.structure.getPublishedSite({ ...ref, page: undefined }, as(reader));
    expect(before.customization?.updatedAt).toBeUndefined();
    expect(before.customization?.settings?.trademark).toEqual({ enabled: true });

    const put = await h.clients.customization.updateSiteCustomization({ ...ref, settings: { title: 'Handbook', trademark: { enabled: false } } }, as(editor));
    expect(put.settings).toMatchObject({ title: 'Handbook', trademark: { enabled: false }, pagination: { enabled: true } });
    await h.clients.customization.overrideSiteSpaceCustomization({ ...ref, siteSpaceId: de.id, overrides: { title: 'Handbuch' } }, as(editor));
    const after = await h.clients.structure.getPublishedSite({ ...ref, page: undefined }, as(reader));
    expect(after.site!.updatedAt).toBe((await h.deps.sites.get(org, site._id))!.updatedAt);
    expect(after.site!.updatedAt > before.site!.updatedAt).toBe(true);
    expect(after.customization?.settings?.title).toBe('Handbook');
    expect(after.siteSpaceCustomizations.map((s) => [s.siteSpaceId, s.settings?.title, s.settings?.trademark])).toEqual([[de.id, 'Handbuch', { enabled: false }]]);
    expect(after.siteSpaceCustomizations.some((s) => s.siteSpaceId === en.id)).toBe(false);
  });

  it('writes need the edit role; a site space of another site is not found; each write records the event on the site', async () => {
    const site = await h.site(org);
    const other = await h.site(org);
    const ref = { organizationId: org, siteId: site._id };
    const ss = await h.clients.structure.addSiteSpace({ ...ref, spaceId: 'cs-en' }, as(editor));
    const elsewhere = await h.clients.structure.addSiteSpace({ organizationId: org, siteId: other._id, spaceId: 'cs-de' }, as(editor));
    await expect(h.clients.customization.updateSiteCustomization({ ...ref, settings: {} }, as(reader))).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(h.clients.customization.getSiteSpaceCustomization({ ...ref, siteSpaceId: elsewhere.id }, as(reader))).rejects.toMatchObject({ kind: 'not_found' });
    await expect(h.clients.customization.overrideSiteSpaceCustomization({ ...ref, siteSpaceId: elsewhere.id, overrides: { title: 'x' } }, as(admin))).rejects.toMatchObject({
      kind: 'not_found',
    });
    await h.clients.customization.updateSiteCustomization({ ...ref, settings: {} }, as(admin));
    await h.clients.customization.overrideSiteSpaceCustomization({ ...ref, siteSpaceId: ss.id, overrides: { title: 'Variant' } }, as(admin));
    expect((await h.clients.customization.deleteSiteSpaceCustomization({ ...ref, siteSpaceId: ss.id }, as(admin))).deleted).toBe(true);
    expect((await h.clients.customization.deleteSiteSpaceCustomization({ ...ref, siteSpaceId: ss.id }, as(admin))).deleted).toBe(false);
    const told = (all: EventEnvelope[]) => all.filter((e) => e.subject === site._id && e.type === 'sites.site_customization.updated');
    const events = told(await readEvents(infraEnv().KAFKA_BROKERS.split(','), `${namespace}bindery.sites.v1`, (all) => told(all).length >= 3));
    const distinct = [...new Map(events.map((e) => [e.id, e])).values()];
    // the PUT, the PATCH and the DELETE that removed overrides; the DELETE that found none told nothing
    expect(distinct.map((e) => (e.data as { siteSpaceId?: string }).siteSpaceId)).toEqual([undefined, ss.id, ss.id]);
  }, 30_000);

  it("deleting the site removes its customization and its site spaces' overrides", async () => {
    const site = await h.site(org);
    const ref = { organizationId: org, siteId: site._id };
    const ss = await h.clients.structure.addSiteSpace({ ...ref, spaceId: 'cs-en' }, as(editor));
    await h.clients.customization.updateSiteCustomization({ ...ref, settings: { title: 'Gone soon' } }, as(admin));
    await h.clients.customization.overrideSiteSpaceCustomization({ ...ref, siteSpaceId: ss.id, overrides: { title: 'Also' } }, as(admin));
    expect(await h.deps.db.collection(COLLECTIONS.siteCustomizations).countDocuments({ siteId: site._id })).toBe(2);
    await h.clients.sites.deleteSite(ref, as(admin));
    expect(await h.deps.db.collection(COLLECTIONS.siteCustomizations).countDocuments({ siteId: site._id, deletedAt: { $exists: false } })).toBe(0);
  });
});
