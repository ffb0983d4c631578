import { contentRevisionsV1 } from '@bindery/shared/contracts';
import { randomBytes } from 'node:crypto';
import type { ContentClients } from '@bindery/content/client';
import { IdentityEvents as I } from '@bindery/identity/client';
import { identityStandIn } from '@bindery/identity/projection';
import { notFound } from '@bindery/platform/errors';
import { Caller, isInternalCaller } from '@bindery/platform/grpc';
import { connectMongo } from '@bindery/platform/mongo';
import { connectSites } from '@bindery/sites/client';
import { COLLECTIONS, VisitorKeysRepository } from '@bindery/sites/data-access';
import { signVisitorToken, type SectionRecord, type SiteRecord, type SiteSpaceRecord } from '@bindery/sites/domain';
import { infraEnv, ServiceUnderTest, startServiceUnderTest } from '@bindery/shared/testing';
import { sitesServiceWith } from './sites-server';
import type { SitesDeps } from './sites-deps';
import { SITE_TOKEN_TTL_MS, verifySiteToken } from './site-tokens';

const id = (prefix: string) => `${prefix}${randomBytes(5).toString('hex')}`;
const org = id('org');
const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const READER = 'http://reader.test:8090';

type Answer = Awaited<ReturnType<ReturnType<typeof connectSites>['published']['resolvePublishedUrl']>>;

/**
 * The published-URL resolver in process on the real MongoDB: sites' gRPC service, content's spaces
 * (current revision, page paths) held in memory, sites and their structure written as records.
 */
describe('ResolvePublishedUrl (in process, real MongoDB and Kafka)', () => {
  let now = T0;
  let service: ServiceUnderTest<SitesDeps>;
  let clients: ReturnType<typeof connectSites>;
  let deps: SitesDeps;
  /** content's spaces: organization, current revision, page paths, deleted or not */
  const spaces = new Map<string, { organization: string; revision: string; paths: string[]; deletedAt?: string }>();
  const content = {
    spaces: {
      getSpace: async (req: { spaceId: string }, o?: { caller?: Caller }) => {
        const s = spaces.get(req.spaceId);
        if (!s || !o?.caller || !isInternalCaller(o.caller.userId)) throw notFound('Space');
        return { id: req.spaceId, title: req.spaceId, organization: s.organization, revision: s.revision, deletedAt: s.deletedAt };
      },
    },
    revisions: {
      listPages: async (req: { spaceId: string; revisionId: string }, o?: { caller?: Caller }) => {
        const s = spaces.get(req.spaceId);
        if (!s || !o?.caller || !isInternalCaller(o.caller.userId) || (req.revisionId && req.revisionId !== s.revision)) throw notFound('Space');
        return { revisionId: s.revision, pages: s.paths.map((path, i) => contentRevisionsV1.RevisionPage.fromPartial({ id: `page${i}`, path })) };
      },
    },
    close: () => undefined,
  } as unknown as ContentClients & { close(): void };

  const renderer: Caller = { userId: 'renderer', isInstanceAdmin: false };
  const resolve = (url: string, visitor?: { token?: string; unsignedClaims?: Record<string, unknown> }, caller: Caller = renderer) =>
    clients.published.resolvePublishedUrl({ url, visitor: visitor && { unsignedClaims: undefined, ...visitor }, redirectOnError: false }, { caller });
  /** The answer, or how it was refused. */
  const outcome = (url: string, visitor?: { token?: string; unsignedClaims?: Record<string, unknown> }, caller?: Caller) =>
    resolve(url, visitor, caller).then(
      (a): Answer | string => a,
      (err: { kind: string }) => err.kind,
    );
  const where = (a: Answer | string) => (typeof a === 'string' ? a : { siteSpaceId: a.siteSpaceId, pathname: a.pathname, ...(a.redirect ? { redirect: a.redirect } : {}) });
  const scopeOf = async (a: Answer | string) => {
    if (typeof a === 'string') throw new Error(`refused: ${a}`);
    return (await clients.published.authenticateSiteToken({ token: a.apiToken })).spaceIds;
  };

  beforeAll(async () => {
    service = await startServiceUnderTest(sitesServiceWith({ clock: () => now, accessSource: identityStandIn, connectContent: () => content }), { BINDERY_READER_URL: READER });
    clients = connectSites(service.address, 5000);
    deps = service.running.deps;
  });
  afterAll(async () => {
    clients?.close();
    await service?.stop();
  });
  beforeEach(() => {
    now = T0;
  });

  function space(paths: string[] = ['intro', 'guides/install'], organization = org): string {
    const spaceId = id('space');
    spaces.set(spaceId, { organization, revision: id('rev'), paths });
    return spaceId;
  }

  /** A site as its repository stores it; root site spaces of these spaces (the first the default) unless sections are given. */
  async function site(
    fields: Partial<SiteRecord> = {},
    structure: { sections?: Array<Partial<SectionRecord> & { siteSpaces: Array<Partial<SiteSpaceRecord>> }>; rootSpaces?: Array<Partial<SiteSpaceRecord>> } = {},
  ) {
    const siteId = id('site');
    const at = new Date(now).toISOString();
    const common = { organizationId: org, siteId, createdAt: at, updatedAt: at };
    const sections: SectionRecord[] = (structure.sections ?? []).map(({ siteSpaces: _, ...s }, order) => ({
      ...common,
      _id: id('sec'),
      title: `S${order}`,
      path: `s${order}`,
      order,
      ...s,
    }));
    const siteSpaces: SiteSpaceRecord[] = [
      ...(structure.rootSpaces ?? []).map((ss, order) => ({ ...common, _id: id('ss'), spaceId: space(), path: `v${order}`, order, ...ss })),
      ...(structure.sections ?? []).flatMap((section, i) =>
        section.siteSpaces.map((ss, order) => ({ ...common, _id: id('ss'), sectionId: sections[i]._id, spaceId: space(), path: `v${order}`, order, ...ss })),
      ),
    ];
    sections.forEach((s) => (s.defaultSiteSpaceId ??= siteSpaces.find((ss) => ss.sectionId === s._id)?._id));
    const record: SiteRecord = {
      _id: siteId,
      organizationId: org,
      type: 'basic',
      title: 'Docs',
      basename: siteId,
      visibility: 'public',
      published: true,
      agentsContext: 'included',
      siteSpaces: siteSpaces.length,
      defaultSectionId: sections[0]?._id,
      defaultSiteSpaceId: sections.length ? undefined : siteSpaces[0]?._id,
      createdAt: at,
      updatedAt: at,
      structureVersion: 0,
      ...fields,
    };
    await deps.sites.insert(record, []);
    if (sections.length) await deps.db.collection(COLLECTIONS.sections).insertMany(sections as never[]);
    if (siteSpaces.length) await deps.db.collection(COLLECTIONS.siteSpaces).insertMany(siteSpaces as never[]);
    return { site: record, sections, siteSpaces, url: `${READER}/${record.organizationId}/${record.basename}` };
  }

  async function shareLink(siteId: string, active = true): Promise<{ id: string; key: string }> {
    const link = { _id: id('link'), organizationId: org, siteId, name: 'Preview', active, key: `bshare_${randomBytes(16).toString('hex')}`, createdAt: 'T', updatedAt: 'T' };
    await deps.db.collection(COLLECTIONS.shareLinks).insertOne(link as never);
    return { id: link._id, key: link.key };
  }

  async function member(role: 'admin' | 'edit'): Promise<Caller> {
    const userId = id(`u-${role}-`);
    await deps.access.handlers[I.memberAdded.type](I.memberAdded.create('tests', userId, { organizationId: org, userId, role }, org));
    return { userId, isInstanceAdmin: false };
  }

  test('a public site: the default site space at the root, another by its path, the rest the page path; paths, URLs and a token of its spaces', async () => {
    const s = await site({}, { rootSpaces: [{ path: 'v2' }, { path: 'v1' }] });
    const [ss2, ss1] = s.siteSpaces;
    const a = await resolve(`${s.url}/guides/install`);
    expect(a).toMatchObject({
      organizationId: org,
      siteId: s.site._id,
      siteSpaceId: ss2._id,
      spaceId: ss2.spaceId,
      revisionId: spaces.get(ss2.spaceId)!.revision,
      pathname: 'guides/install',
      basePath: `/${org}/${s.site.basename}/`,
      siteBasePath: `/${org}/${s.site.basename}/`,
      canonicalUrl: `${s.url}/guides/install`,
      complete: true,
    });
    expect(a.siteSectionId).toBeUndefined();
    expect(a.shareKey).toBeUndefined();
    expect(a.redirect).toBeUndefined();
    expect(where(await resolve(s.url))).toEqual({ siteSpaceId: ss2._id, pathname: '' });
    expect(await resolve(`${s.url}/v1/intro/`)).toMatchObject({
      siteSpaceId: ss1._id,
      pathname: 'intro',
      basePath: `/${org}/${s.site.basename}/v1/`,
      canonicalUrl: `${s.url}/v1/intro`,
    });
    // the default site space's own path is a page path (its URL is the root)
    expect(where(await resolve(`${s.url}/v2/intro`))).toEqual({ siteSpaceId: ss2._id, pathname: 'v2/intro' });
    // the token: the site's spaces, for an hour
    const claims = await verifySiteToken(deps, a.apiToken);
    expect(claims).toMatchObject({ siteId: s.site._id, organizationId: org, exp: (T0 + SITE_TOKEN_TTL_MS) / 1000 });
    expect(claims.shareLinkId).toBeUndefined();
    expect(await scopeOf(a)).toEqual([ss1.spaceId, ss2.spaceId].sort());
  });

  test('sections: the default one at the root, the others by path; a site at its hostname, by http or https', async () => {
    const s = await site(
      { hostname: `${id('docs')}.example.com` },
      {
        sections: [
          { path: 'guides', siteSpaces: [{}, { path: 'v1' }] },
          { path: 'api', sectionGroupId: 'grp1', siteSpaces: [{ path: 'rest' }] },
        ],
      },
    );
    const [guides, api] = s.sections;
    const [g2, g1, rest] = s.siteSpaces;
    const host = `https://${s.site.hostname}`;
    expect(await resolve(`${host}/intro`)).toMatchObject({
      siteSectionId: guides._id,
      siteSpaceId: g2._id,
      pathname: 'intro',
      basePath: '/',
      siteBasePath: '/',
      canonicalUrl: `${host}/intro`,
    });
    expect(await resolve(`http://${s.site.hostname}/v1`)).toMatchObject({ siteSpaceId: g1._id, pathname: '', basePath: '/v1/', canonicalUrl: `${host}/v1` });
    expect(await resolve(`${host}/api/intro`)).toMatchObject({ siteSectionId: api._id, siteSectionGroupId: 'grp1', siteSpaceId: rest._id, pathname: 'intro', basePath: '/api/' });
    // the default section's path is not a segment of its URLs: it is a page path there
    expect(where(await resolve(`${host}/guides/intro`))).toEqual({ siteSpaceId: g2._id, pathname: 'guides/intro' });
    // under the reader's URL too, by basename (paths in that form; the canonical URL at the hostname)
    expect(await resolve(`${s.url}/api`)).toMatchObject({
      siteSpaceId: rest._id,
      basePath: `/${org}/${s.site.basename}/api/`,
      siteBasePath: `/${org}/${s.site.basename}/`,
      canonicalUrl: `${host}/api`,
    });
  });

  test('NOT_FOUND: unpublished, unknown basename or hostname, no URL of the reader, a space gone from content, or nothing to show', async () => {
    const unpublished = await site({ published: false }, { rootSpaces: [{}] });
    const published = await site({}, { rootSpaces: [{}] });
    const goneSpace = await site({}, { rootSpaces: [{}] });
    spaces.get(goneSpace.siteSpaces[0].spaceId)!.deletedAt = 'T';
    const foreignSpace = await site({}, { rootSpaces: [{}] });
    spaces.get(foreignSpace.siteSpaces[0].spaceId)!.organization = 'another-org';
    const empty = await site({}, {});
    const hidden = await site({}, { rootSpaces: [{ spaceDeletedAt: 'T' }] });
    const answers = await Promise.all(
      [
        unpublished.url,
        `${READER}/${org}/nope-${id('')}`,
        `https://${id('nowhere')}.example.com/`,
        READER,
        'not a url',
        'ftp://reader.test:8090/x',
        `${published.url}/%E0%A4%A`,
        goneSpace.url,
        foreignSpace.url,
        empty.url,
        hidden.url,
      ].map((u) => outcome(u)),
    );
    expect(answers).toEqual(Array(11).fill('not_found'));
    expect(where(await resolve(published.url))).toEqual({ siteSpaceId: published.siteSpaces[0]._id, pathname: '' });
  });

  test('a share-link site: only with an active key of its own in the URL; the token rides on the link; the key is never echoed', async () => {
    const s = await site({ visibility: 'share-link' }, { rootSpaces: [{}] });
    const other = await site({ visibility: 'share-link' }, { rootSpaces: [{}] });
    const link = await shareLink(s.site._id);
    const othersLink = await shareLink(other.site._id);
    const inactive = await shareLink(s.site._id, false);
    const withKey = (key: string, rest = '/intro') => `${s.url}/~share/${encodeURIComponent(key)}${rest}`;
    expect(await outcome(`${s.url}/intro`)).toBe('not_found');
    expect(await outcome(withKey(othersLink.key))).toBe('not_found');
    expect(await outcome(withKey(inactive.key))).toBe('not_found');
    expect(await outcome(withKey('bshare_guessed'))).toBe('not_found');
    const a = await resolve(withKey(link.key));
    expect(a).toMatchObject({ siteSpaceId: s.siteSpaces[0]._id, pathname: 'intro', basePath: `/${org}/${s.site.basename}/`, canonicalUrl: `${s.url}/intro` });
    expect(JSON.stringify(a)).not.toContain(link.key);
    expect((await verifySiteToken(deps, a.apiToken)).shareLinkId).toBe(link.id);
    expect(await scopeOf(a)).toEqual([s.siteSpaces[0].spaceId]);
    // the token ends with the link
    await deps.db.collection(COLLECTIONS.shareLinks).updateOne({ _id: link.id } as never, { $set: { active: false } });
    await expect(clients.published.authenticateSiteToken({ token: a.apiToken })).rejects.toMatchObject({ kind: 'unauthenticated' });
    expect(await outcome(withKey(link.key))).toBe('not_found');
  });

  test('a visitor-auth site: only with a visitor token its key verifies; the site token expires with the visitor token', async () => {
    const s = await site({ visibility: 'visitor-auth' }, { rootSpaces: [{}] });
    const keyless = await site({ visibility: 'visitor-auth' }, { rootSpaces: [{}] });
    const admin = await member('admin');
    const key = (await clients.published.getVisitorAuth({ organizationId: org, siteId: s.site._id }, { caller: admin })).privateKey;
    const exp = T0 / 1000 + 600;
    const good = signVisitorToken({ sub: 'visitor-1', plan: 'pro', exp }, key);
    const [header, payload] = good.split('.');
    const refused = {
      none: undefined,
      'another key': signVisitorToken({ exp }, 'not-the-key'),
      expired: signVisitorToken({ exp: T0 / 1000 }, key),
      'no exp': signVisitorToken({ sub: 'x' }, key),
      'not yet valid': signVisitorToken({ exp, nbf: T0 / 1000 + 60 }, key),
      'alg none': `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${payload}.`,
      'alg HS512 header on an HS256 signature': `${Buffer.from(JSON.stringify({ alg: 'HS512' })).toString('base64url')}.${good.split('.').slice(1).join('.')}`,
      'payload changed': `${header}.${Buffer.from(JSON.stringify({ sub: 'admin', exp })).toString('base64url')}.${good.split('.')[2]}`,
      garbage: 'a.b.c',
    };
    for (const [name, token] of Object.entries(refused))
      expect({ name, answer: await outcome(s.url, token === undefined ? undefined : { token }) }).toEqual({ name, answer: 'not_found' });
    // a site that has no key yet verifies nothing (and resolving does not make one)
    expect(await outcome(keyless.url, { token: signVisitorToken({ exp }, key) })).toBe('not_found');
    expect(await deps.visitorKeys.get(org, keyless.site._id)).toBeUndefined();

    const a = await resolve(`${s.url}/intro`, { token: good });
    expect(a).toMatchObject({ siteSpaceId: s.siteSpaces[0]._id, pathname: 'intro' });
    const claims = await verifySiteToken(deps, a.apiToken);
    expect(claims).toMatchObject({ verifiedVisitor: true, exp, visitorClaims: { sub: 'visitor-1', plan: 'pro', exp, unsigned: {} } });
    expect(await scopeOf(a)).toEqual([s.siteSpaces[0].spaceId]);
    // a site token without a verified visitor never opens a visitor-auth site (nor one minted before it became one)
    const publicSite = await site({}, { rootSpaces: [{}] });
    const plain = await resolve(publicSite.url);
    await deps.sites.changeSettings(org, publicSite.site._id, { set: { visibility: 'visitor-auth' }, unset: [], at: new Date().toISOString() }, []);
    await expect(clients.published.authenticateSiteToken({ token: plain.apiToken })).rejects.toMatchObject({ kind: 'unauthenticated' });
    // regenerating the key: tokens signed with the old one stop resolving at once
    const fresh = (await clients.published.regenerateVisitorAuth({ organizationId: org, siteId: s.site._id }, { caller: admin })).privateKey;
    expect(fresh).not.toBe(key);
    expect(await outcome(s.url, { token: good })).toBe('not_found');
    expect(where(await resolve(s.url, { token: signVisitorToken({ exp }, fresh) }))).toEqual({ siteSpaceId: s.siteSpaces[0]._id, pathname: '' });
  });

  test('conditions: a section or site space whose condition fails is as if absent, in the resolution and in the token', async () => {
    const s = await site(
      {},
      {
        sections: [
          { path: 'docs', siteSpaces: [{}, { path: 'beta', condition: 'visitor.claims.unsigned.beta === true' }] },
          { path: 'pro', condition: "visitor.claims.plan === 'pro'", siteSpaces: [{}] },
          { path: 'closed', siteSpaces: [{ condition: 'visitor.claims.staff' }, { path: 'open' }] },
        ],
      },
    );
    const [docs, beta, pro, closedDefault, open] = s.siteSpaces;
    const admin = await member('admin');
    const key = (await clients.published.getVisitorAuth({ organizationId: org, siteId: s.site._id }, { caller: admin })).privateKey;
    const proToken = signVisitorToken({ plan: 'pro', exp: T0 / 1000 + 600 }, key);
    const betaClaims = { beta: true };

    // nobody in particular: beta is a page path of the default site space, pro is a page path of the default section
    expect(where(await resolve(`${s.url}/beta/intro`))).toEqual({ siteSpaceId: docs._id, pathname: 'beta/intro' });
    expect(where(await resolve(`${s.url}/pro`))).toEqual({ siteSpaceId: docs._id, pathname: 'pro' });
    // a default that is closed is not replaced: the section's URL shows nothing, its other site space does
    expect(await outcome(`${s.url}/closed`)).toBe('not_found');
    expect(where(await resolve(`${s.url}/closed/open`))).toEqual({ siteSpaceId: open._id, pathname: '' });
    expect(await scopeOf(await resolve(s.url))).toEqual([docs.spaceId, open.spaceId].sort());

    // unsigned claims open beta (anyone may send them); a verified token's claims open pro
    expect(where(await resolve(`${s.url}/beta/intro`, { unsignedClaims: betaClaims }))).toEqual({ siteSpaceId: beta._id, pathname: 'intro' });
    const asPro = await resolve(`${s.url}/pro`, { token: proToken });
    expect(where(asPro)).toEqual({ siteSpaceId: pro._id, pathname: '' });
    expect(await scopeOf(asPro)).toEqual([docs.spaceId, open.spaceId, pro.spaceId].sort());
    expect(await scopeOf(await resolve(s.url, { token: proToken, unsignedClaims: betaClaims }))).toEqual([docs.spaceId, beta.spaceId, open.spaceId, pro.spaceId].sort());
    // the same claims unsigned open nothing signed; a token signed with another key adds no claims
    expect(where(await resolve(`${s.url}/pro`, { unsignedClaims: { plan: 'pro' } }))).toEqual({ siteSpaceId: docs._id, pathname: 'pro' });
    expect(where(await resolve(`${s.url}/pro`, { token: signVisitorToken({ plan: 'pro', exp: T0 / 1000 + 600 }, 'forged') }))).toEqual({ siteSpaceId: docs._id, pathname: 'pro' });
    const staff = await resolve(`${s.url}/closed`, { token: signVisitorToken({ staff: true, exp: T0 / 1000 + 600 }, key) });
    expect(where(staff)).toEqual({ siteSpaceId: closedDefault._id, pathname: '' });
    // a condition added after minting narrows the token at its next authentication
    await deps.db.collection(COLLECTIONS.siteSpaces).updateOne({ _id: open._id } as never, { $set: { condition: 'false' } });
    expect(await scopeOf(asPro)).toEqual([docs.spaceId, pro.spaceId].sort());
  });

  test("OpenPublishedUrl: the resolution, its token's scope and the site as the visitor sees it in one answer; the share key beside the URL", async () => {
    const s = await site(
      { visibility: 'share-link' },
      {
        sections: [
          { path: 'docs', siteSpaces: [{}, { path: 'beta', condition: 'visitor.claims.unsigned.beta === true' }] },
          { path: 'pro', condition: "visitor.claims.plan === 'pro'", siteSpaces: [{}] },
        ],
      },
    );
    const [docs, beta, pro] = s.siteSpaces;
    const link = await shareLink(s.site._id);
    const admin = await member('admin');
    const key = (await clients.published.getVisitorAuth({ organizationId: org, siteId: s.site._id }, { caller: admin })).privateKey;
    const visitor = { token: signVisitorToken({ plan: 'pro', exp: T0 / 1000 + 600 }, key), unsignedClaims: undefined };
    const open = (url: string, shareKey?: string) => clients.published.openPublishedUrl({ url, visitor, shareKey }, { caller: renderer });
    const siteSpacesOf = (v: Awaited<ReturnType<typeof open>>) => v.site!.structure!.items.flatMap((i) => i.section?.siteSpaces ?? []);

    await expect(open(`${s.url}/pro`)).rejects.toMatchObject({ kind: 'not_found' });
    const v = await open(`${s.url}/pro`, link.key);
    expect(v.content).toMatchObject({ siteSpaceId: pro._id, pathname: '', basePath: `/${org}/${s.site.basename}/pro/` });
    expect(JSON.stringify(v)).not.toContain(link.key);
    // the scope is what AuthenticateSiteToken answers for the token
    expect(v.scope).toEqual(await clients.published.authenticateSiteToken({ token: v.content!.apiToken }));
    expect(v.scope!.spaceIds).toEqual([docs.spaceId, pro.spaceId].sort());
    // the site: beta's condition fails for this visitor, so it is not there; each site space at its space's current revision
    expect(v.site!.site).toMatchObject({ id: s.site._id, visibility: 'share-link' });
    expect(siteSpacesOf(v).map((ss) => [ss.id, ss.space?.revision])).toEqual([docs, pro].map((ss) => [ss._id, spaces.get(ss.spaceId)!.revision]));
    expect(siteSpacesOf(v).map((ss) => ss.id)).not.toContain(beta._id);
    // a key in the URL works as before; a redirect answers nothing else
    expect((await clients.published.openPublishedUrl({ url: `${s.url}/~share/${link.key}/pro` }, { caller: renderer })).content).toMatchObject({
      siteSpaceId: docs._id,
      pathname: 'pro',
    });
  });

  test('redirects: a live one applies where nothing is found or the page path names no page; a page that exists wins', async () => {
    const s = await site({}, { rootSpaces: [{}, { path: 'v1' }] });
    const [main, v1] = s.siteSpaces;
    const at = new Date(now).toISOString();
    const redirect = (source: string, destination: object, draft = false) => ({
      _id: id('r'),
      organizationId: org,
      siteId: s.site._id,
      source,
      destination,
      captureWildcard: false,
      draft,
      permanent: true,
      createdAt: at,
      updatedAt: at,
    });
    await deps.db
      .collection(COLLECTIONS.redirects)
      .insertMany([
        redirect('/old-install', { kind: 'site-page', siteSpaceId: v1._id, pageId: 'page1' }),
        redirect('/intro', { kind: 'external', url: 'https://example.com/intro' }),
        redirect('/elsewhere', { kind: 'external', url: 'https://example.com/' }),
        redirect('/drafty', { kind: 'external', url: 'https://example.com/draft' }, true),
      ] as never[]);
    expect(await resolve(`${s.url}/old-install`)).toMatchObject({
      siteId: s.site._id,
      redirect: `${s.url}/v1/guides/install`,
      redirectTarget: 'content',
      apiToken: '',
      spaceId: '',
    });
    expect(await resolve(`${s.url}/elsewhere`)).toMatchObject({ redirect: 'https://example.com/', redirectTarget: 'external' });
    // the page exists: no redirect
    expect(where(await resolve(`${s.url}/intro`))).toEqual({ siteSpaceId: main._id, pathname: 'intro' });
    // no redirect and no page: the content, for the reader's own 404
    expect(where(await resolve(`${s.url}/missing`))).toEqual({ siteSpaceId: main._id, pathname: 'missing' });
    expect(where(await resolve(`${s.url}/drafty`))).toEqual({ siteSpaceId: main._id, pathname: 'drafty' });
    // nothing in the structure at all: a redirect still applies, else 404
    const empty = await site({}, {});
    await deps.db.collection(COLLECTIONS.redirects).insertOne({ ...redirect('/moved', { kind: 'external', url: 'https://example.com/moved' }), siteId: empty.site._id } as never);
    expect(await resolve(`${empty.url}/moved`)).toMatchObject({ redirect: 'https://example.com/moved', redirectTarget: 'external' });
    expect(await outcome(`${empty.url}/other`)).toBe('not_found');
  });

  test('who may ask: any signed-in caller or service; no caller is unauthenticated, a site token is forbidden', async () => {
    const s = await site({}, { rootSpaces: [{}] });
    const a = await resolve(s.url);
    const stranger: Caller = { userId: id('stranger'), isInstanceAdmin: false };
    expect(where(await resolve(s.url, undefined, stranger))).toEqual(where(a));
    await expect(clients.published.resolvePublishedUrl({ url: s.url, redirectOnError: false }, {})).rejects.toMatchObject({ kind: 'unauthenticated' });
    const scope = await clients.published.authenticateSiteToken({ token: a.apiToken });
    const siteCaller = { userId: `site:${scope.tokenId}`, isInstanceAdmin: false, site: scope } as Caller;
    await expect(resolve(s.url, undefined, siteCaller)).rejects.toMatchObject({ kind: 'forbidden' });
  });

  test("the visitor key: the site's admins only; made once under concurrent first reads", async () => {
    const s = await site({ visibility: 'visitor-auth' }, { rootSpaces: [{}] });
    const admin = await member('admin');
    const editor = await member('edit');
    const ref = { organizationId: org, siteId: s.site._id };
    await expect(clients.published.getVisitorAuth(ref, { caller: editor })).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(clients.published.getVisitorAuth(ref, { caller: { userId: id('stranger'), isInstanceAdmin: false } })).rejects.toMatchObject({ kind: 'not_found' });
    const answers = await Promise.all(Array.from({ length: 8 }, () => clients.published.getVisitorAuth(ref, { caller: admin })));
    expect(new Set(answers.map((a) => a.privateKey)).size).toBe(1);
    expect(answers[0]).toEqual({ privateKey: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), backend: 'custom' });

    // the unique insert is what makes them agree: replicas racing on a fresh database keep one key
    const mongo = await connectMongo(infraEnv().MONGODB_URL, `svc_visitor_keys_${randomBytes(4).toString('hex')}`, 'tests');
    try {
      const replicas = Array.from({ length: 12 }, () => new VisitorKeysRepository(mongo.db));
      const keys = await Promise.all(replicas.map((r) => r.getOrCreate(org, 'site-x', 'T')));
      expect(new Set(keys).size).toBe(1);
      expect(await mongo.db.collection(COLLECTIONS.visitorKeys).countDocuments()).toBe(1);
    } finally {
      await mongo.db.dropDatabase();
      await mongo.close();
    }
  });
});
