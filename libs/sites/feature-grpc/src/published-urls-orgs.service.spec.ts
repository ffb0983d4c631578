import { contentRevisionsV1 } from '@bindery/shared/contracts';
import { randomBytes } from 'node:crypto';
import type { ContentClients } from '@bindery/content/client';
import { IdentityEvents as I } from '@bindery/identity/client';
import { identityStandIn } from '@bindery/identity/projection';
import { notFound } from '@bindery/platform/errors';
import { Caller, isInternalCaller } from '@bindery/platform/grpc';
import { connectSites } from '@bindery/sites/client';
import { COLLECTIONS } from '@bindery/sites/data-access';
import type { SiteRecord, SiteSpaceRecord } from '@bindery/sites/domain';
import { ServiceUnderTest, startServiceUnderTest } from '@bindery/shared/testing';
import { organizationHandlers } from './org-addresses';
import { sitesServiceWith } from './sites-server';
import type { SitesDeps } from './sites-deps';

const id = (prefix: string) => `${prefix}${randomBytes(5).toString('hex')}`;
const READER = 'http://reader.test:8090';
const renderer: Caller = { userId: 'renderer', isInstanceAdmin: false };

/**
 * Published URLs carry the organization (docs/sites.md): two organizations each publish a site of
 * the same basename, each read at its own URL; the earlier form `<reader>/<basename>` and the
 * other forms of an address move for good to the site's URL. In process, on the real MongoDB.
 */
describe.each([
  { name: 'under the reader URL', domain: undefined },
  { name: 'with a reader domain', domain: 'docs.test' },
])('published URLs per organization ($name)', ({ domain }) => {
  let service: ServiceUnderTest<SitesDeps>;
  let clients: ReturnType<typeof connectSites>;
  let deps: SitesDeps;
  const spaces = new Map<string, { organization: string; revision: string }>();
  const content = {
    spaces: {
      getSpace: async (req: { spaceId: string }, o?: { caller?: Caller }) => {
        const s = spaces.get(req.spaceId);
        if (!s || !o?.caller || !isInternalCaller(o.caller.userId)) throw notFound('Space');
        return { id: req.spaceId, title: req.spaceId, organization: s.organization, revision: s.revision };
      },
    },
    revisions: {
      listPages: async (req: { spaceId: string }) => {
        const s = spaces.get(req.spaceId);
        if (!s) throw notFound('Space');
        return { revisionId: s.revision, pages: [contentRevisionsV1.RevisionPage.fromPartial({ id: 'p', path: 'intro' })] };
      },
    },
    close: () => undefined,
  } as unknown as ContentClients & { close(): void };

  const resolve = (url: string) =>
    clients.published.resolvePublishedUrl({ url, redirectOnError: false }, { caller: renderer }).then(
      (a) => a,
      (err: { kind: string }) => err.kind,
    );

  beforeAll(async () => {
    service = await startServiceUnderTest(sitesServiceWith({ accessSource: identityStandIn, connectContent: () => content }), {
      BINDERY_READER_URL: READER,
      ...(domain ? { BINDERY_READER_DOMAIN: domain } : {}),
    });
    clients = connectSites(service.address, 5000);
    deps = service.running.deps;
  });
  afterAll(async () => {
    clients?.close();
    await service?.stop();
  });

  let clock = Date.parse('2026-03-01T00:00:00.000Z');
  /** A published site of one site space, as its repository stores it. */
  async function site(organizationId: string, basename: string, fields: Partial<SiteRecord> = {}): Promise<SiteRecord> {
    const at = new Date((clock += 1000)).toISOString();
    const siteId = id('site');
    const spaceId = id('space');
    spaces.set(spaceId, { organization: organizationId, revision: id('rev') });
    const ss: SiteSpaceRecord = { _id: id('ss'), organizationId, siteId, spaceId, path: 'v', order: 0, createdAt: at, updatedAt: at };
    const record: SiteRecord = {
      _id: siteId,
      organizationId,
      type: 'basic',
      title: basename,
      basename,
      visibility: 'public',
      published: true,
      agentsContext: 'included',
      siteSpaces: 1,
      defaultSiteSpaceId: ss._id,
      createdAt: at,
      updatedAt: at,
      structureVersion: 0,
      ...fields,
    };
    await deps.sites.insert(record, []);
    await deps.db.collection(COLLECTIONS.siteSpaces).insertOne(ss as never);
    return record;
  }

  /** identity's event naming the organization's hostname, as the consumer applies it. */
  const setHostname = (organizationId: string, hostname: string | undefined, at: string) =>
    organizationHandlers(deps)[I.organizationUpdated.type]({
      ...I.organizationUpdated.create('tests', organizationId, { organizationId, changedFields: ['hostname'], hostname }, organizationId),
      time: at,
    });

  test('two organizations each publish `docs`: each is read at its own URL; the earlier form moves to the first created', async () => {
    const a = id('orgA');
    const b = id('orgB');
    const docsA = await site(a, 'docs-shared');
    const docsB = await site(b, 'docs-shared');
    const answerA = await resolve(`${READER}/${a}/docs-shared/intro`);
    const answerB = await resolve(`${READER}/${b}/docs-shared/intro`);
    expect(answerA).toMatchObject({ siteId: docsA._id, organizationId: a, pathname: 'intro', basePath: `/${a}/docs-shared/`, canonicalUrl: `${READER}/${a}/docs-shared/intro` });
    expect(answerB).toMatchObject({ siteId: docsB._id, organizationId: b, pathname: 'intro', siteBasePath: `/${b}/docs-shared/` });
    // the site's messages publish the same URLs
    expect((await clients.sites.getSite({ organizationId: b, siteId: docsB._id }, { caller: { userId: 'admin', isInstanceAdmin: true } })).publishedUrl).toBe(
      `${READER}/${b}/docs-shared`,
    );

    // `<reader>/<basename>/…`: the first created site of that basename, the rest of the path (and a share segment) kept
    expect(await resolve(`${READER}/docs-shared/intro?x=1`)).toMatchObject({ siteId: docsA._id, redirect: `${READER}/${a}/docs-shared/intro`, redirectPermanent: true });
    expect(await resolve(`${READER}/docs-shared`)).toMatchObject({ redirect: `${READER}/${a}/docs-shared`, redirectPermanent: true });
    expect(await resolve(`${READER}/docs-shared/`)).toMatchObject({ redirect: `${READER}/${a}/docs-shared/`, redirectPermanent: true });
    expect(await resolve(`${READER}/docs-shared/~share/bshare_k/intro`)).toMatchObject({ redirect: `${READER}/${a}/docs-shared/~share/bshare_k/intro` });
    // an organization's own site wins over the earlier form's reading of the same path
    await site(a, 'intro');
    expect(await resolve(`${READER}/${a}/intro`)).toMatchObject({ redirectPermanent: false, organizationId: a });
    // nothing there: not found
    expect(await resolve(`${READER}/${id('nobody')}/docs-shared`)).toBe('not_found');
    expect(await resolve(`${READER}/${a}/${id('nothing')}`)).toBe('not_found');
  });

  test("another form of a private site's address tells nothing without its key: not found, as for no site", async () => {
    const basename = id('private');
    const org = id('org');
    const hidden = await site(org, basename, { visibility: 'share-link' });
    const at = new Date().toISOString();
    await deps.shareLinks.insert({ _id: id('link'), organizationId: org, siteId: hidden._id, name: 'friends', active: true, key: 'bshare_friends', createdAt: at, updatedAt: at });
    expect(await resolve(`${READER}/${basename}/intro`)).toBe('not_found');
    expect(await resolve(`${READER}/${basename}/~share/bshare_wrong/intro`)).toBe('not_found');
    expect(await resolve(`${READER}/${basename}/~share/bshare_friends/intro`)).toMatchObject({
      redirect: `${READER}/${org}/${basename}/~share/bshare_friends/intro`,
      redirectPermanent: true,
    });
  });

  test('the earlier form moves to no unpublished site, and names no deleted one', async () => {
    const basename = id('old');
    const first = await site(id('org'), basename, { published: false });
    await site(id('org'), basename);
    expect(await resolve(`${READER}/${basename}/intro`)).toBe('not_found');
    await deps.sites.remove(first.organizationId, first._id, new Date().toISOString(), []);
    expect(await resolve(`${READER}/${basename}/intro`)).toMatchObject({ redirectPermanent: true });
  });

  test("an organization's hostname names it; its id moves there (to its host below the reader domain when there is one)", async () => {
    const org = id('org');
    const hostname = id('acme-');
    const docs = await site(org, 'handbook');
    const updatedAt = async () => (await deps.sites.get(org, docs._id))!.updatedAt;
    await setHostname(org, hostname, '2026-03-02T00:00:00.000Z');
    // the organization's sites moved: each is touched (its sites.site.updated drops the reader's copies)
    const moved = await updatedAt();
    expect(moved).not.toBe(docs.updatedAt);
    // an older event changes nothing; the same hostname again touches nothing
    await setHostname(org, 'older', '2026-03-01T00:00:00.000Z');
    await setHostname(org, hostname, '2026-03-02T00:00:01.000Z');
    expect(await updatedAt()).toBe(moved);
    const home = domain ? `http://${hostname}.${domain}/handbook` : `${READER}/${hostname}/handbook`;
    expect((await clients.sites.getSite({ organizationId: org, siteId: docs._id }, { caller: { userId: 'admin', isInstanceAdmin: true } })).publishedUrl).toBe(home);
    expect(await resolve(`${home}/intro`)).toMatchObject({
      siteId: docs._id,
      pathname: 'intro',
      canonicalUrl: `${home}/intro`,
      siteBasePath: domain ? '/handbook/' : `/${hostname}/handbook/`,
    });
    expect(await resolve(`${READER}/${org}/handbook/intro`)).toMatchObject({ redirect: `${home}/intro`, redirectPermanent: true });
    expect(await resolve(`${READER}/handbook/intro`)).toMatchObject({ redirect: `${home}/intro`, redirectPermanent: true });
    if (domain) expect(await resolve(`${READER}/${hostname}/handbook/intro`)).toMatchObject({ redirect: `${home}/intro`, redirectPermanent: true });
    else expect(await resolve(`http://${hostname}.docs.test/handbook/intro`)).toBe('not_found');

    // a hostname another organization chooses never takes an id's URL
    const other = id('org');
    await site(other, 'handbook');
    await setHostname(other, org.toLowerCase(), '2026-03-03T00:00:00.000Z');
    expect(await resolve(`${READER}/${org}/handbook/intro`)).toMatchObject({ siteId: docs._id });
  });

  test('a site with its own hostname is still served at it and in the reader forms', async () => {
    const org = id('org');
    const host = `${id('h')}.example.com`;
    const s = await site(org, 'own', { hostname: host });
    expect(await resolve(`https://${host}/intro`)).toMatchObject({ siteId: s._id, siteBasePath: '/', canonicalUrl: `https://${host}/intro` });
    expect(await resolve(`${READER}/${org}/own/intro`)).toMatchObject({ siteId: s._id, siteBasePath: `/${org}/own/`, canonicalUrl: `https://${host}/intro` });
  });
});
