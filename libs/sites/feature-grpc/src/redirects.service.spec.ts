import { contentRevisionsV1 } from '@bindery/shared/contracts';
import { randomBytes } from 'node:crypto';
import type { ContentClients } from '@bindery/content/client';
import { IdentityEvents as I } from '@bindery/identity/client';
import { identityStandIn } from '@bindery/identity/projection';
import { notFound } from '@bindery/platform/errors';
import { Caller, isInternalCaller } from '@bindery/platform/grpc';
import type { SearchClients } from '@bindery/search/client';
import { connectSites } from '@bindery/sites/client';
import { COLLECTIONS } from '@bindery/sites/data-access';
import type { SiteRecord } from '@bindery/sites/domain';
import { infraEnv, readEvents, ServiceUnderTest, startServiceUnderTest } from '@bindery/shared/testing';
import { sitesServiceWith } from './sites-server';
import { basicSiteRecord } from './testing/site-records';
import type { SitesDeps } from './sites-deps';

type PageNode = { id: string; path: string; pages?: PageNode[] };
/** A destination as a request names it (the RedirectDestination message). */
type Destination = { kind: string; siteSectionId?: string; siteSpaceId?: string; pageId?: string; url?: string; spaceId?: string; path?: string };

const id = (prefix: string) => `${prefix}${randomBytes(6).toString('hex')}`;
const org = id('org');
const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const KAFKA_NAMESPACE = `r${randomBytes(4).toString('hex')}.`;

/**
 * Redirects and a site's search, in process on the real MongoDB: sites' gRPC service with the
 * organization roles fed as identity's events would, content's page trees and search held in memory.
 */
describe('redirects and site search (in process, real MongoDB and Kafka)', () => {
  let now = T0;
  let service: ServiceUnderTest<SitesDeps>;
  let clients: ReturnType<typeof connectSites>;
  let deps: SitesDeps;
  /** content's page trees per space, with the users who may read them */
  const spaces = new Map<string, { readers: Set<string>; tree: PageNode[] }>();
  /** what the site search asked of search */
  const searches: Array<{ spaceIds: string[]; caller?: Caller; query: string }> = [];

  const content = {
    revisions: {
      listPages: async (req: { spaceId: string }, o?: { caller?: Caller }) => {
        const s = spaces.get(req.spaceId);
        if (!s || !o?.caller || !(isInternalCaller(o.caller.userId) || s.readers.has(o.caller.userId))) throw notFound('Space');
        return { revisionId: 'rev', pages: s.tree.map((p) => contentRevisionsV1.RevisionPage.fromPartial(p)) };
      },
    },
    close: () => undefined,
  } as unknown as ContentClients & { close(): void };
  const search = {
    search: {
      searchSpaces: async (req: { spaceIds: string[]; query: string }, o?: { caller?: Caller }) => {
        searches.push({ spaceIds: req.spaceIds, caller: o?.caller, query: req.query });
        return { spaces: req.spaceIds.map((s) => ({ id: s, title: s, pages: [] })), pages: [], page: { count: req.spaceIds.length, nextPage: '' } };
      },
    },
    close: () => undefined,
  } as unknown as SearchClients & { close(): void };

  const user = (userId: string): Caller => ({ userId, isInstanceAdmin: false });
  const editor = user('editor');
  const reader = user('reader');
  const commenter = user('commenter');

  beforeAll(async () => {
    service = await startServiceUnderTest(sitesServiceWith({ clock: () => now, accessSource: identityStandIn, connectContent: () => content, connectSearch: () => search }), {
      BINDERY_READER_URL: 'http://reader.test',
      KAFKA_NAMESPACE,
    });
    clients = connectSites(service.address, 5000);
    deps = service.running.deps;
    for (const [userId, role] of [
      ['editor', 'edit'],
      ['reader', 'read'],
      ['commenter', 'comment'],
      ['guest', undefined],
    ] as const) {
      await deps.access.handlers[I.memberAdded.type](I.memberAdded.create('tests', userId, { organizationId: org, userId, role }, org));
    }
  });
  afterAll(async () => {
    clients?.close();
    await service?.stop();
  });

  /**
   * A site with two sections: `guides` (the default; site spaces `v2` (default) and `v1`) and `api`
   * (site spaces `rest` (default) and `graphql`), and a site space of a deleted space.
   */
  async function site(options: Partial<SiteRecord> = {}) {
    const siteId = id('site');
    const at = new Date(now).toISOString();
    const ids = { guides: id('sec'), api: id('sec'), v2: id('ss'), v1: id('ss'), rest: id('ss'), graphql: id('ss'), hidden: id('ss') };
    const space = { v2: id('sp'), v1: id('sp'), rest: id('sp'), graphql: id('sp') };
    const record = basicSiteRecord(org, siteId, at, { siteSpaces: 4, defaultSectionId: ids.guides, ...options });
    await deps.sites.insert(record, []);
    const common = { organizationId: org, siteId, createdAt: at, updatedAt: at };
    await deps.db.collection(COLLECTIONS.sections).insertMany([
      { _id: ids.guides, ...common, title: 'Guides', path: 'guides', order: 0, defaultSiteSpaceId: ids.v2 },
      { _id: ids.api, ...common, title: 'API', path: 'api', order: 1, defaultSiteSpaceId: ids.rest },
    ] as never[]);
    await deps.db.collection(COLLECTIONS.siteSpaces).insertMany([
      { _id: ids.v2, ...common, sectionId: ids.guides, spaceId: space.v2, path: 'v2', order: 0 },
      { _id: ids.v1, ...common, sectionId: ids.guides, spaceId: space.v1, path: 'v1', order: 1 },
      { _id: ids.rest, ...common, sectionId: ids.api, spaceId: space.rest, path: 'rest', order: 0 },
      { _id: ids.graphql, ...common, sectionId: ids.api, spaceId: space.graphql, path: 'graphql', order: 1 },
      { _id: ids.hidden, ...common, sectionId: ids.api, spaceId: id('sp'), path: 'hidden', order: 2, spaceDeletedAt: at },
    ] as never[]);
    spaces.set(space.v1, { readers: new Set(['editor']), tree: [{ id: 'p-intro', path: 'intro', pages: [{ id: 'p-setup', path: 'intro/setup' }] }] });
    return { site: record, ids, space };
  }

  const create = (s: SiteRecord, body: { source: string; destination: Destination; captureWildcard?: boolean; draft?: boolean; permanent?: boolean }, caller: Caller = editor) =>
    clients.published.createRedirect(
      {
        organizationId: s.organizationId,
        siteId: s._id,
        source: body.source,
        destination: body.destination,
        captureWildcard: body.captureWildcard ?? false,
        draft: body.draft ?? false,
        permanent: body.permanent ?? false,
      },
      { caller },
    );
  const lookup = (s: SiteRecord, source: string, caller: Caller = reader, shareKey?: string) =>
    clients.published.getRedirectBySource({ organizationId: s.organizationId, siteId: s._id, source, shareKey }, { caller });
  const targetOf = async (s: SiteRecord, source: string) => (await lookup(s, source)).target;
  const list = async (s: SiteRecord, options: { draft?: boolean; search?: string; orderBy?: string; limit?: number; page?: string } = {}) =>
    clients.published.listRedirects(
      {
        organizationId: s.organizationId,
        siteId: s._id,
        page: { page: options.page ?? '', limit: options.limit ?? 0 },
        draft: options.draft,
        search: options.search,
        orderBy: options.orderBy,
      },
      { caller: reader },
    );

  test('a lookup goes through the exact source, else the longest wildcard prefix, to where the destination is published now', async () => {
    const { site: s, ids, space } = await site();
    await create(s, { source: '/old-guides', destination: { kind: 'site-section', siteSectionId: ids.guides } });
    await create(s, { source: '/old-api', destination: { kind: 'site-section', siteSectionId: ids.api } });
    await create(s, { source: '/graph', destination: { kind: 'site-space', siteSpaceId: ids.graphql } });
    await create(s, { source: '/home', destination: { kind: 'site-space', siteSpaceId: ids.v2 } });
    await create(s, { source: '/setup', destination: { kind: 'site-page', siteSpaceId: ids.v1, pageId: 'p-setup' } });
    await create(s, { source: '/legacy/*', destination: { kind: 'external', url: 'https://archive.example.com/docs?v=1' }, captureWildcard: true });
    await create(s, { source: '/legacy/special', destination: { kind: 'external', url: 'https://special.example.com' } });
    await create(s, { source: '/legacy/deep/*', destination: { kind: 'external', url: 'https://deep.example.com' } });
    await create(s, { source: '/v*', destination: { kind: 'site-space', siteSpaceId: ids.v1 }, captureWildcard: true });
    await create(s, { source: '/draft-only', destination: { kind: 'external', url: 'https://draft.example.com' }, draft: true });

    const home = `http://reader.test/${s.organizationId}/${s._id}`;
    expect(await targetOf(s, '/old-guides')).toBe(home);
    expect(await targetOf(s, '/old-api')).toBe(`${home}/api`);
    expect(await targetOf(s, '/graph')).toBe(`${home}/api/graphql`);
    expect(await targetOf(s, '/home')).toBe(home);
    expect(await targetOf(s, '/setup')).toBe(`${home}/v1/intro/setup`);
    expect(await targetOf(s, '/legacy/a/b')).toBe('https://archive.example.com/docs/a/b?v=1');
    expect(await targetOf(s, '/legacy')).toBe('https://archive.example.com/docs?v=1');
    expect(await targetOf(s, '/legacy/special')).toBe('https://special.example.com');
    expect(await targetOf(s, '/legacy/deep/x')).toBe('https://deep.example.com');
    expect(await targetOf(s, '/v3/page')).toBe(`${home}/v13/page`);
    const match = await lookup(s, '/legacy/a');
    expect(match.redirect).toMatchObject({ source: '/legacy/*', captureWildcard: true, draft: false, updatedAt: '' });
    expect(match.redirect!.destination).toEqual({ kind: 'external', url: 'https://archive.example.com/docs?v=1' });
    await expect(lookup(s, '/draft-only')).rejects.toMatchObject({ kind: 'not_found' });
    await expect(lookup(s, '/nowhere')).rejects.toMatchObject({ kind: 'not_found', message: 'Site redirect not found.' });

    // a destination that left the site leads to its home (a page that left, to its site space)
    await deps.db.collection(COLLECTIONS.siteSpaces).updateOne({ _id: ids.graphql } as never, { $set: { spaceDeletedAt: new Date(now).toISOString() } });
    expect(await targetOf(s, '/graph')).toBe(home);
    spaces.get(space.v1)!.tree = [];
    expect(await targetOf(s, '/setup')).toBe(`${home}/v1`);
  });

  test('a page named by its space and path is stored as the page of the site space; what is not of the site is refused', async () => {
    const { site: s, ids, space } = await site({ hostname: `docs-${id('h')}.example.com` });
    const created = await create(s, { source: '/start', destination: { kind: 'path', spaceId: space.v1, path: '/intro/setup' } });
    expect(created.destination).toEqual({ kind: 'site-page', siteSpaceId: ids.v1, pageId: 'p-setup' });
    expect(await targetOf(s, '/start')).toBe(`https://${s.hostname}/v1/intro/setup`);

    const refused = async (destination: Destination, caller = editor) => {
      try {
        await create(s, { source: `/r-${id('')}`, destination }, caller);
        return 'created';
      } catch (err) {
        return `${(err as { kind: string }).kind}: ${(err as Error).message}`;
      }
    };
    expect(await refused({ kind: 'path', spaceId: space.v1, path: 'missing' })).toBe('invalid: destination.path names no page of that space that you can read.');
    expect(await refused({ kind: 'path', spaceId: id('sp'), path: 'intro' })).toBe('invalid: destination.spaceId names no space of this site.');
    expect(await refused({ kind: 'site-page', siteSpaceId: ids.v1, pageId: 'nope' })).toBe('invalid: destination.pageId names no page of that space that you can read.');
    expect(await refused({ kind: 'site-section', siteSectionId: 'nope' })).toBe('invalid: destination.siteSectionId names no section of this site.');
    expect(await refused({ kind: 'site-space', siteSpaceId: ids.hidden })).toBe('invalid: destination.siteSpaceId names no site space of this site.');
    expect(await refused({ kind: 'external', url: 'javascript:alert(1)' })).toBe('invalid: destination.url must be an absolute http or https URL of at most 2048 characters.');
    // the instance admin may set redirects, but the page must be one they can read
    expect(await refused({ kind: 'path', spaceId: space.v1, path: 'intro' }, { userId: 'root', isInstanceAdmin: true })).toBe(
      'invalid: destination.path names no page of that space that you can read.',
    );
  });

  test('sources are unique per site and draft flag: a duplicate is 409, also when two requests race, and a draft cannot be promoted over a live one', async () => {
    const { site: s } = await site();
    const other = (await site()).site;
    const external = { kind: 'external', url: 'https://example.com' };
    await create(s, { source: '/dup', destination: external });
    await expect(create(s, { source: '/dup', destination: external })).rejects.toMatchObject({ kind: 'conflict' });
    const draft = await create(s, { source: '/dup', destination: external, draft: true });
    await create(other, { source: '/dup', destination: external });

    const results = await Promise.allSettled(Array.from({ length: 8 }, () => create(s, { source: '/race', destination: external })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.kind)).toEqual(Array(7).fill('conflict'));
    expect((await list(s, { search: 'race' })).items).toHaveLength(1);

    const promote = clients.published.updateRedirect({ organizationId: org, siteId: s._id, redirectId: draft.id, draft: false }, { caller: editor });
    await expect(promote).rejects.toMatchObject({ kind: 'conflict', message: 'A redirect from this source already exists on the site (live and draft redirects are apart).' });
  });

  test('a list pages live or draft redirects, newest first, last updated first or by source, filtered by a part of the source', async () => {
    const { site: s } = await site();
    const external = { kind: 'external', url: 'https://example.com' };
    const made: string[] = [];
    for (const source of ['/c', '/a', '/b/x', '/d']) {
      now += 1000;
      made.push((await create(s, { source, destination: external })).id);
    }
    await create(s, { source: '/a', destination: external, draft: true });
    now += 1000;
    const updated = await clients.published.updateRedirect({ organizationId: org, siteId: s._id, redirectId: made[1], permanent: true }, { caller: editor });
    expect(updated).toMatchObject({ permanent: true, updatedAt: new Date(now).toISOString() });

    const sources = async (options: Parameters<typeof list>[1]) => (await list(s, options)).items.map((r) => r.source);
    expect(await sources({})).toEqual(['/d', '/b/x', '/a', '/c']);
    expect(await sources({ orderBy: 'source' })).toEqual(['/a', '/b/x', '/c', '/d']);
    expect(await sources({ orderBy: 'updatedAt' })).toEqual(['/a', '/d', '/b/x', '/c']);
    expect(await sources({ draft: true })).toEqual(['/a']);
    expect(await sources({ search: 'B/' })).toEqual(['/b/x']);
    const first = await list(s, { limit: 3 });
    expect(first.page).toMatchObject({ count: 4 });
    const second = await list(s, { limit: 3, page: first.page!.nextPage });
    expect([...first.items, ...second.items].map((r) => r.source)).toEqual(['/d', '/b/x', '/a', '/c']);
    expect(second.page?.nextPage).toBeFalsy();
    await expect(list(s, { orderBy: 'title' })).rejects.toMatchObject({ kind: 'invalid' });
  });

  test('update changes what it names; delete removes for good and says when there was nothing; each change is a sites.site.updated of the site', async () => {
    const { site: s, ids } = await site();
    const r = await create(s, { source: '/x/*', destination: { kind: 'external', url: 'https://example.com' } });
    now += 1000;
    const updated = await clients.published.updateRedirect(
      {
        organizationId: org,
        siteId: s._id,
        redirectId: r.id,
        source: '/y/*',
        destination: { kind: 'site-space', siteSpaceId: ids.rest },
        captureWildcard: true,
      },
      { caller: editor },
    );
    expect(updated).toMatchObject({ id: r.id, source: '/y/*', captureWildcard: true, createdAt: r.createdAt, updatedAt: new Date(now).toISOString() });
    expect(await targetOf(s, '/y/z')).toBe(`http://reader.test/${s.organizationId}/${s._id}/api/z`);
    await expect(
      clients.published.updateRedirect({ organizationId: org, siteId: s._id, redirectId: r.id, destination: { kind: 'path', spaceId: 'x', path: 'y' } }, { caller: editor }),
    ).rejects.toMatchObject({ kind: 'invalid' });
    await expect(clients.published.updateRedirect({ organizationId: org, siteId: s._id, redirectId: 'nope', permanent: true }, { caller: editor })).rejects.toMatchObject({
      kind: 'not_found',
    });
    expect(await clients.published.deleteRedirect({ organizationId: org, siteId: s._id, redirectId: r.id }, { caller: editor })).toEqual({ deleted: true });
    expect(await clients.published.deleteRedirect({ organizationId: org, siteId: s._id, redirectId: r.id }, { caller: editor })).toEqual({ deleted: false });
    await expect(lookup(s, '/y/z')).rejects.toMatchObject({ kind: 'not_found' });

    const ofSite = <E extends { subject: string }>(events: E[]) => events.filter((e) => e.subject === s._id);
    const events = ofSite(await readEvents(infraEnv().KAFKA_BROKERS.split(','), `${KAFKA_NAMESPACE}bindery.sites.v1`, (all) => ofSite(all).length >= 3));
    expect(events.map((e) => `${e.type} ${(e.data as { changes: string[] }).changes}`)).toEqual(Array(3).fill('sites.site.updated redirects'));
  });

  test('who may do what: view reads, edit writes, a site token and a share key look up, other callers see no site', async () => {
    const { site: s } = await site({ visibility: 'share-link' });
    const external = { kind: 'external', url: 'https://example.com' };
    await create(s, { source: '/there', destination: external });
    const at = new Date(now).toISOString();
    const key = `bshare_${randomBytes(16).toString('hex')}`;
    await deps.db
      .collection(COLLECTIONS.shareLinks)
      .insertOne({ _id: id('sl'), organizationId: org, siteId: s._id, name: 'Preview', active: true, key, createdAt: at, updatedAt: at } as never);
    const siteCaller = (siteId: string): Caller => ({ userId: 'site:tok', isInstanceAdmin: false, site: { organizationId: org, siteId, spaceIds: [], tokenId: 'tok' } });
    const outcome = async (call: () => Promise<unknown>) =>
      call().then(
        () => 'ok',
        (err) => err.kind,
      );
    const asking = (caller: Caller, shareKey?: string) => outcome(() => lookup(s, '/there', caller, shareKey));
    expect({
      reader: await asking(reader),
      guest: await asking(user('guest')),
      stranger: await asking(user('stranger')),
      strangerWithKey: await asking(user('stranger'), key),
      strangerWithWrongKey: await asking(user('stranger'), 'bshare_wrong'),
      siteToken: await asking(siteCaller(s._id)),
      otherSiteToken: await asking(siteCaller(id('site'))),
      otherSiteTokenWithKey: await asking(siteCaller(id('site')), key),
    }).toEqual({
      reader: 'ok',
      guest: 'not_found',
      stranger: 'not_found',
      strangerWithKey: 'ok',
      strangerWithWrongKey: 'not_found',
      siteToken: 'ok',
      otherSiteToken: 'not_found',
      otherSiteTokenWithKey: 'not_found',
    });
    await deps.sites.changeSettings(org, s._id, { set: { published: false }, unset: [], at: new Date().toISOString() }, []);
    expect(await asking(user('stranger'), key)).toBe('not_found');
    expect(await asking(reader)).toBe('ok');

    const ref = { organizationId: org, siteId: s._id };
    expect({
      listAsCommenter: await outcome(() => clients.published.listRedirects({ ...ref, page: undefined }, { caller: commenter })),
      createAsCommenter: await outcome(() => create(s, { source: '/new', destination: external }, commenter)),
      createAsReader: await outcome(() => create(s, { source: '/new', destination: external }, reader)),
      deleteAsReader: await outcome(() => clients.published.deleteRedirect({ ...ref, redirectId: 'x' }, { caller: reader })),
      listAsSiteToken: await outcome(() => clients.published.listRedirects({ ...ref, page: undefined }, { caller: siteCaller(s._id) })),
      createAsStranger: await outcome(() => create(s, { source: '/new', destination: external }, user('stranger'))),
    }).toEqual({
      listAsCommenter: 'ok',
      createAsCommenter: 'forbidden',
      createAsReader: 'forbidden',
      deleteAsReader: 'forbidden',
      listAsSiteToken: 'forbidden',
      createAsStranger: 'not_found',
    });
  });

  test("a site's search covers the spaces of its scope, searched as the caller", async () => {
    const { site: s, ids, space } = await site();
    const searchAs = async (
      scope: { mode: string; includedSiteSpaces?: string[]; siteSpaceIds?: string[]; siteSpaceId?: string; currentSiteSpace?: string; restrictTo?: string },
      caller: Caller = reader,
    ) => {
      searches.length = 0;
      const r = await clients.published.searchSite(
        { organizationId: org, siteId: s._id, query: 'setup', scope: { includedSiteSpaces: [], siteSpaceIds: [], restrictTo: '', ...scope }, page: undefined },
        { caller },
      );
      expect(r.spaces.map((x) => x.id)).toEqual(searches[0].spaceIds);
      return { spaceIds: searches[0].spaceIds, caller: searches[0].caller?.userId, query: searches[0].query };
    };
    expect(await searchAs({ mode: 'default' })).toEqual({ spaceIds: [space.v2, space.rest], caller: 'reader', query: 'setup' });
    expect((await searchAs({ mode: 'default', includedSiteSpaces: [ids.graphql] })).spaceIds).toEqual([space.v2, space.rest, space.graphql]);
    expect((await searchAs({ mode: 'all' })).spaceIds).toEqual([space.v2, space.v1, space.rest, space.graphql]);
    expect((await searchAs({ mode: 'specific', siteSpaceIds: [ids.v1, ids.hidden] })).spaceIds).toEqual([space.v1]);
    expect((await searchAs({ mode: 'current', siteSpaceId: ids.graphql })).spaceIds).toEqual([space.v2, space.rest, space.graphql]);
    // 0.202.0: the visitor's site space, always searched; restrictTo narrows to it or to the rest of the default scope
    expect((await searchAs({ mode: 'default', currentSiteSpace: ids.v1 })).spaceIds).toEqual([space.v2, space.v1, space.rest]);
    expect((await searchAs({ mode: 'default', currentSiteSpace: ids.v1, restrictTo: 'currentSiteSpace' })).spaceIds).toEqual([space.v1]);
    expect((await searchAs({ mode: 'default', currentSiteSpace: ids.v2, restrictTo: 'otherSiteSpaces' })).spaceIds).toEqual([space.rest]);
    await expect(searchAs({ mode: 'default', restrictTo: 'currentSiteSpace' })).rejects.toMatchObject({ kind: 'invalid' });
    const token: Caller = { userId: 'site:tok', isInstanceAdmin: false, site: { organizationId: org, siteId: s._id, spaceIds: [space.v2], tokenId: 'tok' } };
    expect(await searchAs({ mode: 'all' }, token)).toMatchObject({ caller: 'site:tok' });
    const other: Caller = { ...token, site: { ...token.site!, siteId: id('site') } };
    await expect(
      clients.published.searchSite(
        { organizationId: org, siteId: s._id, query: 'x', scope: { mode: 'all', includedSiteSpaces: [], siteSpaceIds: [], restrictTo: '' }, page: undefined },
        { caller: other },
      ),
    ).rejects.toMatchObject({
      kind: 'not_found',
    });
    await expect(
      clients.published.searchSite(
        { organizationId: org, siteId: s._id, query: 'x', scope: { mode: 'all', includedSiteSpaces: [], siteSpaceIds: [], restrictTo: '' }, page: undefined },
        { caller: user('guest') },
      ),
    ).rejects.toMatchObject({
      kind: 'not_found',
    });
  });
});
