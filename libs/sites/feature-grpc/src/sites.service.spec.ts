import { randomBytes } from 'node:crypto';
import { IdentityEvents as I } from '@bindery/identity/client';
import { identityStandIn } from '@bindery/identity/projection';
import type { EventEnvelope } from '@bindery/platform/events';
import { connectSites } from '@bindery/sites/client';
import { infraEnv, readEvents, startServiceUnderTest, ServiceUnderTest } from '@bindery/shared/testing';
import type { SitesDeps } from './sites-deps';
import { sitesServiceWith } from './sites-server';
import { ContentStandIn } from './testing/content-stand-in';

const hex = () => randomBytes(3).toString('hex');
const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
const who = (userId: string) => ({ caller: { userId, isInstanceAdmin: false } });

/**
 * The service tier of sites' own services: in process on the real MongoDB and Kafka, organization
 * roles fed to its projection as identity's events would, content as an in-memory stand-in.
 */
describe('sites service (in process, real MongoDB and Kafka)', () => {
  const content = new ContentStandIn();
  const namespace = `s${hex()}.`;
  let service: ServiceUnderTest<SitesDeps>;
  let clients: ReturnType<typeof connectSites>;

  beforeAll(async () => {
    service = await startServiceUnderTest(sitesServiceWith({ accessSource: identityStandIn, connectContent: () => content.clients() }), {
      KAFKA_NAMESPACE: namespace,
      BINDERY_READER_URL: 'http://reader.test',
    });
    clients = connectSites(service.address, 10000);
  });
  afterAll(async () => {
    clients?.close();
    await service?.stop();
  });

  /** An organization with a member per role (user ids `<role>-<org>`); `guest` is a member without a role. */
  async function newOrg() {
    const org = `org-${hex()}`;
    const user = (role: string) => `${role}-${org}`;
    for (const role of [...ROLES, null]) {
      const userId = user(role ?? 'guest');
      await service.running.deps.access.handlers[I.memberAdded.type](I.memberAdded.create('tests', userId, { organizationId: org, userId, role: role ?? undefined }, org));
    }
    const space = (title: string, readers: string[] = ROLES.map(user)) => {
      const id = `space-${hex()}`;
      content.addSpace(id, org, title, readers);
      return id;
    };
    return { org, user, as: (role: string) => who(user(role)), space };
  }

  const create = (org: string, fields: { title?: string; spaceIds?: string[]; newSpace?: string; type?: string; visibility?: string }, as: ReturnType<typeof who>) =>
    clients.sites.createSite({ organizationId: org, spaceIds: [], ...fields }, as);
  const list = (org: string, filters: { spaceId?: string; title?: string; published?: boolean; types?: string[]; limit?: number; page?: string }, as: ReturnType<typeof who>) =>
    clients.sites.listSites({ organizationId: org, types: [], ...filters, page: { page: filters.page ?? '', limit: filters.limit ?? 0 } }, as);

  test('a site starts unpublished with its spaces as root site spaces in order, the first its default, and a basename from its title', async () => {
    const o = await newOrg();
    const guide = o.space('Guide');
    const api = o.space('API Reference');
    const again = o.space('Guide');
    const site = await create(o.org, { title: 'Developer Docs', spaceIds: [guide, api, again] }, o.as('create'));
    expect(site).toMatchObject({ title: 'Developer Docs', basename: 'developer-docs', type: 'basic', visibility: 'public', published: false, siteSpaces: 3, defaultSpace: guide });
    expect(site.publishedUrl).toBeUndefined();
    expect(site.permissions).toEqual({ view: true, edit: true, publish: true, admin: false });
    const rows = await service.running.deps.db.collection('site_spaces').find({ siteId: site.id }).sort({ order: 1 }).toArray();
    expect(rows.map((r) => [r.spaceId, r.path, r.order, r.sectionId])).toEqual([
      [guide, 'guide', 0, undefined],
      [api, 'api-reference', 1, undefined],
      [again, 'guide-2', 2, undefined],
    ]);
    // the same title again: the next free basename
    expect((await create(o.org, { title: 'Developer docs!' }, o.as('admin'))).basename).toBe('developer-docs-2');
    expect((await create(o.org, {}, o.as('admin'))).title).toBe('Untitled site');
  });

  test('simultaneous creates of sites with one title each get a basename of their own', async () => {
    const o = await newOrg();
    const title = `Race ${hex()}`;
    const sites = await Promise.all(Array.from({ length: 6 }, () => create(o.org, { title }, o.as('admin'))));
    const basenames = sites.map((s) => s.basename!);
    expect(new Set(basenames).size).toBe(6);
    const base = title.toLowerCase().replace(' ', '-');
    expect([...basenames].sort()).toEqual([base, `${base}-2`, `${base}-3`, `${base}-4`, `${base}-5`, `${base}-6`].sort());
  }, 30_000);

  test('spaces must be readable by the creator and of the organization; "sample" and "empty" create one through content as the caller', async () => {
    const o = await newOrg();
    const other = await newOrg();
    const hidden = o.space('Hidden', [o.user('admin')]);
    const foreign = other.space('Theirs', [o.user('create'), other.user('admin')]);
    const mine = o.space('Mine');
    for (const spaceIds of [[hidden], [foreign], ['no-such-space'], [mine, mine]]) {
      await expect(create(o.org, { spaceIds }, o.as('create'))).rejects.toMatchObject({ kind: 'invalid' });
    }
    const sample = await create(o.org, { title: 'Handbook', newSpace: 'sample' }, o.as('create'));
    const made = content.space(sample.defaultSpace!)!;
    expect(made).toMatchObject({ organization: o.org, title: 'Handbook', pages: ['Welcome'] });
    expect(made.readers.has(o.user('create'))).toBe(true);
    const empty = await create(o.org, { title: 'Blank', newSpace: 'empty' }, o.as('create'));
    expect(content.space(empty.defaultSpace!)).toMatchObject({ title: 'Blank', pages: [] });
    await expect(create(o.org, { newSpace: 'other' }, o.as('create'))).rejects.toMatchObject({ kind: 'invalid' });
  });

  test('who may create: create and admin; an editor is refused; a guest or a stranger does not see the organization', async () => {
    const o = await newOrg();
    await expect(create(o.org, {}, o.as('review'))).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(create(o.org, {}, o.as('guest'))).rejects.toMatchObject({ kind: 'not_found' });
    await expect(create(o.org, {}, who('stranger'))).rejects.toMatchObject({ kind: 'not_found' });
  });

  test('lists filter by a space shown, title, published state and types, a page at a time', async () => {
    const o = await newOrg();
    const shown = o.space('Shown');
    const a = await create(o.org, { title: 'Alpha docs', spaceIds: [shown] }, o.as('admin'));
    const b = await create(o.org, { title: 'Beta docs', type: 'premium' }, o.as('admin'));
    const c = await create(o.org, { title: 'Gamma' }, o.as('admin'));
    await clients.sites.publishSite({ organizationId: o.org, siteId: b.id }, o.as('admin'));
    const ids = async (f: Parameters<typeof list>[1]) => (await list(o.org, f, o.as('read'))).items.map((s) => s.id);
    expect(await ids({})).toEqual([a.id, b.id, c.id]);
    expect(await ids({ spaceId: shown })).toEqual([a.id]);
    expect(await ids({ title: 'DOCS' })).toEqual([a.id, b.id]);
    expect(await ids({ published: true })).toEqual([b.id]);
    expect(await ids({ published: false })).toEqual([a.id, c.id]);
    expect(await ids({ types: ['premium', 'ultimate'] })).toEqual([b.id]);
    const first = await list(o.org, { limit: 2 }, o.as('read'));
    expect(first.page).toMatchObject({ count: 3, nextPage: expect.any(String) });
    const second = await list(o.org, { limit: 2, page: first.page!.nextPage }, o.as('read'));
    expect(second.items.map((s) => s.id)).toEqual([c.id]);
    expect(second.page?.nextPage).toBeUndefined();
    await expect(list(o.org, { types: ['gold'] }, o.as('read'))).rejects.toMatchObject({ kind: 'invalid' });
    await expect(list(o.org, {}, o.as('guest'))).rejects.toMatchObject({ kind: 'not_found' });
  });

  test('publishing is idempotent and gives the site its published URL while it lasts', async () => {
    const o = await newOrg();
    const site = await create(o.org, { title: 'Published thing' }, o.as('create'));
    const ref = { organizationId: o.org, siteId: site.id };
    await expect(clients.sites.publishSite(ref, o.as('review'))).rejects.toMatchObject({ kind: 'forbidden' });
    const published = await clients.sites.publishSite(ref, o.as('create'));
    expect(published).toMatchObject({ published: true, publishedUrl: `http://reader.test/${o.org}/published-thing` });
    expect(await clients.sites.publishSite(ref, o.as('create'))).toMatchObject({ published: true });
    expect(await clients.sites.unpublishSite(ref, o.as('admin'))).toMatchObject({ published: false, publishedUrl: undefined });
    expect(await clients.sites.unpublishSite(ref, o.as('admin'))).toMatchObject({ published: false });
  });

  test('updates: title by editors; address, access and adaptive content by admins; basenames and hostnames unique (409)', async () => {
    const o = await newOrg();
    const site = await create(o.org, { title: 'Settings' }, o.as('admin'));
    const other = await create(o.org, { title: 'Taken name' }, o.as('admin'));
    const update = (fields: Record<string, unknown>, role: string) => clients.sites.updateSite({ organizationId: o.org, siteId: site.id, ...fields }, o.as(role));
    expect(await update({ title: '  Renamed  ' }, 'edit')).toMatchObject({ title: 'Renamed', basename: 'settings' });
    await expect(update({ title: 'Again', visibility: 'unlisted' }, 'create')).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(update({ title: 'x' }, 'edit')).rejects.toMatchObject({ kind: 'invalid' });
    await expect(update({ title: 'Nope' }, 'comment')).rejects.toMatchObject({ kind: 'forbidden' });
    const changed = await update(
      { visibility: 'share-link', basename: 'new-home', agentsContext: 'excluded', adaptiveContentEnabled: true, proxy: { value: 'example.com/docs' } },
      'admin',
    );
    expect(changed).toMatchObject({
      visibility: 'share-link',
      basename: 'new-home',
      agentsContext: 'excluded',
      adaptiveContentEnabled: true,
      proxy: { origin: 'example.com/docs', target: `http://reader.test/${o.org}/new-home` },
    });
    await expect(update({ basename: other.basename }, 'admin')).rejects.toMatchObject({ kind: 'conflict' });
    await expect(update({ basename: 'Not A Slug' }, 'admin')).rejects.toMatchObject({ kind: 'invalid' });
    expect(await update({ proxy: {} }, 'admin')).toMatchObject({ proxy: undefined });
    // the hostname (no REST field in 0.130.0): unique across the instance, removable
    expect(await update({ hostname: { value: 'docs.example.com' } }, 'admin')).toMatchObject({ hostname: 'docs.example.com' });
    await expect(clients.sites.updateSite({ organizationId: o.org, siteId: other.id, hostname: { value: 'docs.example.com' } }, o.as('admin'))).rejects.toMatchObject({
      kind: 'conflict',
    });
    const published = await clients.sites.publishSite({ organizationId: o.org, siteId: site.id }, o.as('admin'));
    expect(published.publishedUrl).toBe('https://docs.example.com');
    expect(await update({ hostname: {} }, 'admin')).toMatchObject({ hostname: undefined, publishedUrl: `http://reader.test/${o.org}/new-home` });
  });

  test('basenames are unique per organization: another organization takes the same one; inside one, a derived one gets a suffix and a chosen one is a 409', async () => {
    const a = await newOrg();
    const b = await newOrg();
    const title = `Handbook ${hex()}`;
    const base = title.toLowerCase().replace(' ', '-');
    const inA = await create(a.org, { title }, a.as('admin'));
    const inB = await create(b.org, { title }, b.as('admin'));
    expect([inA.basename, inB.basename]).toEqual([base, base]);
    expect(inB.previewUrl).toBe(`http://reader.test/${b.org}/${base}`);
    // a basename another organization has is free here
    const otherB = await create(b.org, { title: 'Other' }, b.as('admin'));
    const renamed = await clients.sites.updateSite({ organizationId: b.org, siteId: otherB.id, basename: `${base}-x` }, b.as('admin'));
    const takenInA = await create(a.org, { title: 'Third' }, a.as('admin'));
    expect((await clients.sites.updateSite({ organizationId: a.org, siteId: takenInA.id, basename: renamed.basename }, a.as('admin'))).basename).toBe(`${base}-x`);
    // inside one organization, as before
    expect((await create(a.org, { title }, a.as('admin'))).basename).toBe(`${base}-2`);
    await expect(clients.sites.updateSite({ organizationId: b.org, siteId: otherB.id, basename: base }, b.as('admin'))).rejects.toMatchObject({
      kind: 'conflict',
      message: expect.stringContaining('Another site of the organization already has the basename'),
    });
  });

  test('the default site space is one at the root, or one of the default section', async () => {
    const o = await newOrg();
    const [s1, s2] = [o.space('One'), o.space('Two')];
    const site = await create(o.org, { title: 'Defaults', spaceIds: [s1, s2] }, o.as('admin'));
    const other = await create(o.org, { title: 'Elsewhere', spaceIds: [s1] }, o.as('admin'));
    const db = service.running.deps.db;
    const [root1, root2] = (await db.collection('site_spaces').find({ siteId: site.id }).sort({ order: 1 }).toArray()).map((r) => String(r._id));
    const foreign = String((await db.collection('site_spaces').findOne({ siteId: other.id }))!._id);
    const update = (fields: Record<string, unknown>) => clients.sites.updateSite({ organizationId: o.org, siteId: site.id, ...fields }, o.as('edit'));
    expect(await update({ defaultSiteSpace: root2 })).toMatchObject({ defaultSpace: s2 });
    await expect(update({ defaultSiteSpace: foreign })).rejects.toMatchObject({ kind: 'invalid' });
    await expect(update({ defaultSiteSection: 'no-such-section' })).rejects.toMatchObject({ kind: 'invalid' });

    // sections are the structure's; here two are written as it would
    const now = new Date().toISOString();
    const section = (id: string, order: number) => ({ _id: id, organizationId: o.org, siteId: site.id, title: id, path: id, order, createdAt: now, updatedAt: now });
    await db.collection('sections').insertMany([{ ...section('sec-a', 0), defaultSiteSpaceId: 'ss-a1' }, section('sec-b', 1)] as never[]);
    const inSection = (id: string, sectionId: string, spaceId: string, order: number) => ({
      _id: id,
      organizationId: o.org,
      siteId: site.id,
      sectionId,
      spaceId,
      path: id,
      order,
      createdAt: now,
      updatedAt: now,
    });
    await db.collection('site_spaces').insertMany([inSection('ss-a1', 'sec-a', s1, 0), inSection('ss-a2', 'sec-a', s2, 1), inSection('ss-b1', 'sec-b', s1, 0)] as never[]);
    expect(await update({ defaultSiteSection: 'sec-a' })).toMatchObject({ defaultSpace: s1 });
    expect(await update({ defaultSiteSpace: 'ss-a2' })).toMatchObject({ defaultSpace: s2 });
    expect((await db.collection('sections').findOne({ _id: 'sec-a' } as never))?.defaultSiteSpaceId).toBe('ss-a2');
    await expect(update({ defaultSiteSpace: 'ss-b1' })).rejects.toMatchObject({ kind: 'invalid' });
    expect(await update({ defaultSiteSection: 'sec-b', defaultSiteSpace: 'ss-b1' })).toMatchObject({ defaultSpace: s1 });
    void root1;
  });

  test('deleting a site removes its structure and share links and frees its basename; deleting it again deletes nothing', async () => {
    const o = await newOrg();
    const site = await create(o.org, { title: 'Short lived', spaceIds: [o.space('Kept')] }, o.as('admin'));
    const link = await clients.shareLinks.createShareLink({ organizationId: o.org, siteId: site.id, name: 'Friends' }, o.as('admin'));
    const ref = { organizationId: o.org, siteId: site.id };
    await expect(clients.sites.deleteSite(ref, o.as('create'))).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(clients.sites.deleteSite(ref, who('stranger'))).rejects.toMatchObject({ kind: 'not_found' });
    expect(await clients.sites.deleteSite(ref, o.as('admin'))).toEqual({ deleted: true });
    expect(await clients.sites.deleteSite(ref, o.as('admin'))).toEqual({ deleted: false });
    await expect(clients.sites.getSite(ref, o.as('admin'))).rejects.toMatchObject({ kind: 'not_found' });
    const db = service.running.deps.db;
    expect(await db.collection('site_spaces').countDocuments({ siteId: site.id })).toBe(0);
    expect(await db.collection('share_links').countDocuments({ siteId: site.id })).toBe(0);
    expect(await service.running.deps.shareLinks.activeShareLinkByKey(site.id, keyOf(link.publishedUrl!))).toBeNull();
    expect((await create(o.org, { title: 'Short lived' }, o.as('admin'))).basename).toBe('short-lived');
  });

  test('adaptive schema: a default until set (admins), checked against the official shape; template conditions from its claims', async () => {
    const o = await newOrg();
    const site = await create(o.org, { title: 'Adaptive' }, o.as('admin'));
    const ref = { organizationId: o.org, siteId: site.id };
    const initial = await clients.sites.getAdaptiveSchema(ref, o.as('read'));
    expect(initial.jsonSchema).toMatchObject({ type: 'object', additionalProperties: false });
    expect(initial.updatedAt).toBe(site.createdAt);
    const schema = {
      type: 'object',
      properties: {
        unsigned: {
          type: 'object',
          description: 'Unsigned claims of the site visitor.',
          properties: { isBetaUser: { type: 'boolean', description: 'Visitor is a beta user' } },
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    };
    const put = (s: Record<string, unknown>, role: string) => clients.sites.updateAdaptiveSchema({ ...ref, jsonSchema: s }, o.as(role));
    await expect(put(schema, 'create')).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(put({ ...schema, additionalProperties: true }, 'admin')).rejects.toMatchObject({ kind: 'invalid' });
    const stored = await put(schema, 'admin');
    expect(stored.jsonSchema).toEqual(schema);
    expect((await clients.sites.getAdaptiveSchema(ref, o.as('read'))).jsonSchema).toEqual(schema);
    expect((await clients.sites.listTemplateConditions(ref, o.as('read'))).items).toEqual([
      { description: 'Visitor is a beta user', condition: 'visitor.claims.unsigned.isBetaUser === true' },
    ]);
  });

  test('every change is told by its event, and no event carries a share key', async () => {
    const o = await newOrg();
    const site = await create(o.org, { title: 'Eventful' }, o.as('admin'));
    const ref = { organizationId: o.org, siteId: site.id };
    await clients.sites.updateSite({ ...ref, title: 'Eventful site', visibility: 'share-link' }, o.as('admin'));
    await clients.sites.updateSite({ ...ref, title: 'Eventful site' }, o.as('admin'));
    const link = await clients.shareLinks.createShareLink({ ...ref, name: 'Secret' }, o.as('admin'));
    await clients.sites.publishSite(ref, o.as('admin'));
    await clients.sites.unpublishSite(ref, o.as('admin'));
    await clients.sites.deleteSite(ref, o.as('admin'));
    const ofSite = (events: EventEnvelope[]) => events.filter((e) => e.subject === site.id);
    const events = ofSite(await readEvents(infraEnv().KAFKA_BROKERS.split(','), `${namespace}bindery.sites.v1`, (all) => ofSite(all).some((e) => e.type === 'sites.site.deleted')));
    const distinct = [...new Map(events.map((e) => [e.id, e])).values()];
    expect(distinct.map((e) => [e.type, (e.data as { changes?: string[] }).changes])).toEqual([
      ['sites.site.created', undefined],
      ['sites.site.updated', ['title', 'visibility']],
      ['sites.site.updated', ['share-links']],
      ['sites.site.published', undefined],
      ['sites.site.unpublished', undefined],
      ['sites.site.deleted', undefined],
    ]);
    expect(JSON.stringify(events)).not.toContain(keyOf(link.publishedUrl!));
  }, 30_000);
});

const keyOf = (url: string) => decodeURIComponent(url.split('/~share/')[1]);
