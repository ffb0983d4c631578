import { randomBytes } from 'node:crypto';
import type { ContentClients } from '@bindery/content/client';
import { ContentEvents as C } from '@bindery/content/client';
import { GitSyncEvents } from '@bindery/git-sync/client';
import { IdentityEvents as I } from '@bindery/identity/client';
import { identityStandIn } from '@bindery/identity/projection';
import { applyEvent, EventEnvelope, EventHandlers } from '@bindery/platform/events';
import { notFound } from '@bindery/platform/errors';
import { Caller, isInternalCaller } from '@bindery/platform/grpc';
import { mongoProcessedEvents } from '@bindery/platform/mongo';
import { contentRevisionsV1, type gitSyncEventsV1 } from '@bindery/shared/contracts';
import { infraEnv, readEvents, ServiceUnderTest, startServiceUnderTest } from '@bindery/shared/testing';
import { connectSites } from '@bindery/sites/client';
import { COLLECTIONS } from '@bindery/sites/data-access';
import type { SiteRecord } from '@bindery/sites/domain';
import { contentHandlers } from './content-events';
import { gitSyncHandlers } from './git-sync-events';
import { sitesServiceWith } from './sites-server';
import { basicSiteRecord } from './testing/site-records';
import type { SitesDeps } from './sites-deps';

const id = (prefix: string) => `${prefix}${randomBytes(5).toString('hex')}`;
const org = id('org');
const READER = 'http://reader.test';
const KAFKA_NAMESPACE = `g${randomBytes(4).toString('hex')}.`;
const GROUP = 'sites.git-sync';

type PageNode = { id: string; path: string; pages?: PageNode[] };

/**
 * A space's Git redirects (git-sync's completed imports) in sites, in process on the real MongoDB
 * and Kafka: the consumer applied as its group does, the lookup and the resolver answering them in
 * every site showing the space; content's spaces and page trees held in memory.
 */
describe('Git redirects from git-sync’s imports (in process, real MongoDB and Kafka)', () => {
  let service: ServiceUnderTest<SitesDeps>;
  let clients: ReturnType<typeof connectSites>;
  let deps: SitesDeps;
  let handlers: EventHandlers;
  const spaces = new Map<string, { revision: string; tree: PageNode[] }>();
  const content = {
    spaces: {
      getSpace: async (req: { spaceId: string }, o?: { caller?: Caller }) => {
        const s = spaces.get(req.spaceId);
        if (!s || !o?.caller || !isInternalCaller(o.caller.userId)) throw notFound('Space');
        return { id: req.spaceId, title: req.spaceId, organization: org, revision: s.revision };
      },
    },
    revisions: {
      listPages: async (req: { spaceId: string }, o?: { caller?: Caller }) => {
        const s = spaces.get(req.spaceId);
        if (!s || !o?.caller || !(isInternalCaller(o.caller.userId) || o.caller.userId === 'editor')) throw notFound('Space');
        return { revisionId: s.revision, pages: s.tree.map((p) => contentRevisionsV1.RevisionPage.fromPartial(p)) };
      },
    },
    close: () => undefined,
  } as unknown as ContentClients & { close(): void };
  const editor: Caller = { userId: 'editor', isInstanceAdmin: false };
  const reader: Caller = { userId: 'reader', isInstanceAdmin: false };

  beforeAll(async () => {
    service = await startServiceUnderTest(sitesServiceWith({ accessSource: identityStandIn, connectContent: () => content }), { BINDERY_READER_URL: READER, KAFKA_NAMESPACE });
    clients = connectSites(service.address, 5000);
    deps = service.running.deps;
    handlers = gitSyncHandlers(deps);
    for (const [userId, role] of [
      ['editor', 'edit'],
      ['reader', 'read'],
    ] as const) {
      await deps.access.handlers[I.memberAdded.type](I.memberAdded.create('tests', userId, { organizationId: org, userId, role }, org));
    }
  });
  afterAll(async () => {
    clients?.close();
    await service?.stop();
  });

  /** A space with pages `intro` (p-intro) and `intro/setup` (p-setup). */
  function space(): string {
    const spaceId = id('sp');
    spaces.set(spaceId, { revision: id('rev'), tree: [{ id: 'p-intro', path: 'intro', pages: [{ id: 'p-setup', path: 'intro/setup' }] }] });
    return spaceId;
  }

  /** A published site: section `guides` (the default: site spaces `v2`, the default, and `v1`), section `api` (site space `rest`). */
  async function site(shows: { v2: string; v1: string; rest: string }) {
    const siteId = id('site');
    const at = new Date().toISOString();
    const ids = { guides: id('sec'), api: id('sec'), v2: id('ss'), v1: id('ss'), rest: id('ss') };
    const record = basicSiteRecord(org, siteId, at, { siteSpaces: 3, defaultSectionId: ids.guides });
    await deps.sites.insert(record, []);
    const common = { organizationId: org, siteId, createdAt: at, updatedAt: at };
    await deps.db.collection(COLLECTIONS.sections).insertMany([
      { _id: ids.guides, ...common, title: 'Guides', path: 'guides', order: 0, defaultSiteSpaceId: ids.v2 },
      { _id: ids.api, ...common, title: 'API', path: 'api', order: 1, defaultSiteSpaceId: ids.rest },
    ] as never[]);
    await deps.db.collection(COLLECTIONS.siteSpaces).insertMany([
      { _id: ids.v2, ...common, sectionId: ids.guides, spaceId: shows.v2, path: 'v2', order: 0 },
      { _id: ids.v1, ...common, sectionId: ids.guides, spaceId: shows.v1, path: 'v1', order: 1 },
      { _id: ids.rest, ...common, sectionId: ids.api, spaceId: shows.rest, path: 'rest', order: 0 },
    ] as never[]);
    return { site: record, ids, home: `${READER}/${org}/${siteId}` };
  }

  const imported = (spaceId: string, items: Partial<gitSyncEventsV1.GitRedirect>[] | undefined, direction = 'import') =>
    GitSyncEvents.syncCompleted.create('git-sync', spaceId, {
      spaceId,
      organizationId: org,
      direction,
      commit: id('c'),
      revisionId: spaces.get(spaceId)!.revision,
      changed: true,
      redirects: items && { items: items.map((r) => ({ source: '', pageId: '', anchor: '', url: '', ...r })) },
    });
  /** Applies the event as the consumer group does (once per event id, in a transaction with its marker). */
  const apply = (event: EventEnvelope) => applyEvent(mongoProcessedEvents(deps.db), GROUP, handlers[event.type], event);
  const lookup = (s: SiteRecord, source: string) => clients.published.getRedirectBySource({ organizationId: org, siteId: s._id, source }, { caller: reader });
  /** Where the path goes now, or 'none'. */
  const targetOf = (s: SiteRecord, source: string) =>
    lookup(s, source).then(
      (m) => m.target,
      (err: { kind: string }) => (err.kind === 'not_found' ? 'none' : Promise.reject(err)),
    );
  const resolve = (url: string) => clients.published.resolvePublishedUrl({ url, redirectOnError: false }, { caller: reader });
  const handWritten = (s: SiteRecord, source: string, url: string) =>
    clients.published.createRedirect(
      { organizationId: org, siteId: s._id, source, destination: { kind: 'external', url }, captureWildcard: false, draft: false, permanent: false },
      { caller: editor },
    );
  const listed = async (s: SiteRecord) =>
    (await clients.published.listRedirects({ organizationId: org, siteId: s._id, page: { page: '', limit: 100 }, orderBy: 'source' }, { caller: reader })).items.map(
      (r) => r.source,
    );

  test('an import’s redirects reach each site showing the space, below the site space’s path, once', async () => {
    const [a, b, c] = [space(), space(), space()];
    const one = await site({ v2: a, v1: b, rest: c });
    const two = await site({ v2: c, v1: a, rest: b });
    const event = imported(b, [
      { source: '/old/setup', pageId: 'p-setup' },
      { source: '/linux', pageId: 'p-setup', anchor: 'linux' },
      { source: '/blog', url: 'https://blog.example.com/post' },
      { source: '/intro', pageId: 'p-setup' },
    ]);
    expect(await apply(event)).toBe(true);
    expect(await apply(event)).toBe(false);

    expect(await targetOf(one.site, '/v1/old/setup')).toBe(`${one.home}/v1/intro/setup`);
    expect(await targetOf(one.site, '/v1/linux')).toBe(`${one.home}/v1/intro/setup#linux`);
    expect(await targetOf(one.site, '/v1/blog')).toBe('https://blog.example.com/post');
    expect(await targetOf(one.site, '/old/setup')).toBe('none');
    expect(await targetOf(two.site, '/api/old/setup')).toBe(`${two.home}/api/intro/setup`);
    const match = await lookup(one.site, '/v1/old/setup');
    expect(match.redirect).toMatchObject({ source: '/v1/old/setup', captureWildcard: false, draft: false, permanent: true });
    expect(match.redirect!.destination).toEqual({ kind: 'site-page', siteSpaceId: one.ids.v1, pageId: 'p-setup' });
    // they are the space's, not the site's: the site's own list does not hold them
    expect(await listed(one.site)).toEqual([]);

    // the target follows the page where it moves
    spaces.get(b)!.tree = [
      { id: 'p-intro', path: 'intro' },
      { id: 'p-setup', path: 'setup' },
    ];
    expect(await targetOf(one.site, '/v1/old/setup')).toBe(`${one.home}/v1/setup`);

    // the resolver answers them where no page is at the path; a page that is there wins
    expect(await resolve(`${one.home}/v1/old/setup`)).toMatchObject({ redirect: `${one.home}/v1/setup`, redirectTarget: 'content' });
    const page = await resolve(`${one.home}/v1/intro`);
    expect(page).toMatchObject({ pathname: 'intro', spaceId: b });
    expect(page.redirect ?? '').toBe('');

    // each site showing the space tells the reader's cache, as a hand-written redirect's change does
    const ofSites = (all: EventEnvelope[]) => all.filter((e) => e.subject === one.site._id || e.subject === two.site._id);
    const events = ofSites(await readEvents(infraEnv().KAFKA_BROKERS.split(','), `${KAFKA_NAMESPACE}bindery.sites.v1`, (all) => ofSites(all).length >= 2));
    expect(events.map((e) => `${e.subject} ${e.type} ${(e.data as { changes: string[] }).changes}`).sort()).toEqual(
      [`${one.site._id} sites.site.updated redirects`, `${two.site._id} sites.site.updated redirects`].sort(),
    );
  });

  test('a re-import replaces only the space’s Git redirects; the site’s own stay, and win on the same source', async () => {
    const [a, b, c] = [space(), space(), space()];
    const { site: s, home } = await site({ v2: a, v1: b, rest: c });
    await handWritten(s, '/v1/old/setup', 'https://hand.example.com/setup');
    await handWritten(s, '/v1/*', 'https://hand.example.com/wildcard');
    await handWritten(s, '/kept', 'https://hand.example.com/kept');
    const first = imported(b, [
      { source: '/old/setup', pageId: 'p-intro' },
      { source: '/old/other', pageId: 'p-intro' },
    ]);
    expect(await apply(first)).toBe(true);
    expect(await targetOf(s, '/v1/old/setup')).toBe('https://hand.example.com/setup');
    // a Git redirect's exact source goes before a hand-written wildcard
    expect(await targetOf(s, '/v1/old/other')).toBe(`${home}/v1/intro`);

    const second = imported(b, [{ source: '/new/path', pageId: 'p-setup' }]);
    expect(await apply(second)).toBe(true);
    expect(await targetOf(s, '/v1/old/other')).toBe('https://hand.example.com/wildcard');
    expect(await targetOf(s, '/v1/new/path')).toBe(`${home}/v1/intro/setup`);
    expect(await targetOf(s, '/kept')).toBe('https://hand.example.com/kept');
    expect(await listed(s)).toEqual(['/kept', '/v1/*', '/v1/old/setup']);

    // an older import's event delivered late, an export and a standalone import change nothing
    expect(await apply({ ...imported(b, [{ source: '/stale', pageId: 'p-intro' }]), time: '2020-01-01T00:00:00.000Z' })).toBe(true);
    expect(await apply(imported(b, undefined, 'export'))).toBe(true);
    expect(await apply(imported(b, undefined))).toBe(true);
    expect(await targetOf(s, '/v1/new/path')).toBe(`${home}/v1/intro/setup`);
    expect(await targetOf(s, '/v1/stale')).toBe('https://hand.example.com/wildcard');

    // an import whose .gitbook.yaml has none removes them
    expect(await apply(imported(b, []))).toBe(true);
    expect(await targetOf(s, '/v1/new/path')).toBe('https://hand.example.com/wildcard');
  });

  test('a site made later, or given the space later, answers the space’s Git redirects', async () => {
    const [a, b, c] = [space(), space(), space()];
    expect(await apply(imported(a, [{ source: '/old', pageId: 'p-setup' }]))).toBe(true);
    const later = await site({ v2: a, v1: b, rest: c });
    expect(await targetOf(later.site, '/old')).toBe(`${later.home}/intro/setup`);
    const at = new Date().toISOString();
    await deps.db.collection(COLLECTIONS.siteSpaces).insertOne({
      _id: id('ss'),
      organizationId: org,
      siteId: later.site._id,
      sectionId: later.ids.api,
      spaceId: a,
      path: 'copy',
      order: 1,
      createdAt: at,
      updatedAt: at,
    } as never);
    expect(await targetOf(later.site, '/api/copy/old')).toBe(`${later.home}/api/copy/intro/setup`);
    // a site space of another space does not answer them
    expect(await targetOf(later.site, '/api/old')).toBe('none');
  });

  test('a transferred space’s Git redirects follow it to its new organization; a purged space’s go', async () => {
    const [moved, purged] = [space(), space()];
    await apply(imported(moved, [{ source: '/old', pageId: 'p-intro' }]));
    await apply(imported(purged, [{ source: '/old', pageId: 'p-intro' }]));
    const other = id('org');
    const content = contentHandlers(deps);
    const applyContent = (event: EventEnvelope) => applyEvent(mongoProcessedEvents(deps.db), 'sites.content', content[event.type], event);
    expect(await applyContent(C.spaceTransferred.create('tests', moved, { spaceId: moved, fromOrganizationId: org, organizationId: other }, other))).toBe(true);
    expect(await applyContent(C.spacePurged.create('tests', purged, { organizationId: org, spaceId: purged }, org))).toBe(true);
    expect(await deps.gitRedirects.get(moved)).toMatchObject({ organizationId: other, redirects: [{ source: '/old', pageId: 'p-intro' }] });
    expect(await deps.gitRedirects.get(purged)).toBeNull();
  });
});
