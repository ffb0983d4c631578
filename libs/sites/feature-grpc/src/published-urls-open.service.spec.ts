import { randomBytes } from 'node:crypto';
import { Caller } from '@bindery/platform/grpc';
import { connectMongo } from '@bindery/platform/mongo';
import { COLLECTIONS, VisitorKeysRepository } from '@bindery/sites/data-access';
import { signVisitorToken } from '@bindery/sites/domain';
import { infraEnv, startServiceUnderTest } from '@bindery/shared/testing';
import { id, org, publishedUrlsHarness, T0 } from './testing/published-urls-harness';

/** Published URLs opened with the site, redirects, who may ask, and the visitor key. */
describe('OpenPublishedUrl, redirects and the visitor key (in process, real MongoDB and Kafka)', () => {
  const h = publishedUrlsHarness(startServiceUnderTest);
  const { resolve, outcome, where, site, shareLink, member, spaces, renderer } = h;

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
    const key = (await h.clients.published.getVisitorAuth({ organizationId: org, siteId: s.site._id }, { caller: admin })).privateKey;
    const visitor = { token: signVisitorToken({ plan: 'pro', exp: T0 / 1000 + 600 }, key), unsignedClaims: undefined };
    const open = (url: string, shareKey?: string) => h.clients.published.openPublishedUrl({ url, visitor, shareKey }, { caller: renderer });
    const siteSpacesOf = (v: Awaited<ReturnType<typeof open>>) => v.site!.structure!.items.flatMap((i) => i.section?.siteSpaces ?? []);

    await expect(open(`${s.url}/pro`)).rejects.toMatchObject({ kind: 'not_found' });
    const v = await open(`${s.url}/pro`, link.key);
    expect(v.content).toMatchObject({ siteSpaceId: pro._id, pathname: '', basePath: `/${org}/${s.site.basename}/pro/` });
    expect(JSON.stringify(v)).not.toContain(link.key);
    // the scope is what AuthenticateSiteToken answers for the token
    expect(v.scope).toEqual(await h.clients.published.authenticateSiteToken({ token: v.content!.apiToken }));
    expect(v.scope!.spaceIds).toEqual([docs.spaceId, pro.spaceId].sort());
    // the site: beta's condition fails for this visitor, so it is not there; each site space at its space's current revision
    expect(v.site!.site).toMatchObject({ id: s.site._id, visibility: 'share-link' });
    expect(siteSpacesOf(v).map((ss) => [ss.id, ss.space?.revision])).toEqual([docs, pro].map((ss) => [ss._id, spaces.get(ss.spaceId)!.revision]));
    expect(siteSpacesOf(v).map((ss) => ss.id)).not.toContain(beta._id);
    // a key in the URL works as before; a redirect answers nothing else
    expect((await h.clients.published.openPublishedUrl({ url: `${s.url}/~share/${link.key}/pro` }, { caller: renderer })).content).toMatchObject({
      siteSpaceId: docs._id,
      pathname: 'pro',
    });
  });

  test('redirects: a live one applies where nothing is found or the page path names no page; a page that exists wins', async () => {
    const s = await site({}, { rootSpaces: [{}, { path: 'v1' }] });
    const [main, v1] = s.siteSpaces;
    const at = new Date(h.now).toISOString();
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
    await h.deps.db
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
    await h.deps.db.collection(COLLECTIONS.redirects).insertOne({ ...redirect('/moved', { kind: 'external', url: 'https://example.com/moved' }), siteId: empty.site._id } as never);
    expect(await resolve(`${empty.url}/moved`)).toMatchObject({ redirect: 'https://example.com/moved', redirectTarget: 'external' });
    expect(await outcome(`${empty.url}/other`)).toBe('not_found');
  });

  test('who may ask: anyone, a signed-in caller, a service or no caller at all, the same answer; a site token is forbidden', async () => {
    const s = await site({}, { rootSpaces: [{}] });
    const a = await resolve(s.url);
    const stranger: Caller = { userId: id('stranger'), isInstanceAdmin: false };
    expect(where(await resolve(s.url, undefined, stranger))).toEqual(where(a));
    expect(where(await h.clients.published.resolvePublishedUrl({ url: s.url, redirectOnError: false }, {}))).toEqual(where(a));
    const scope = await h.clients.published.authenticateSiteToken({ token: a.apiToken });
    const siteCaller = { userId: `site:${scope.tokenId}`, isInstanceAdmin: false, site: scope } as Caller;
    await expect(resolve(s.url, undefined, siteCaller)).rejects.toMatchObject({ kind: 'forbidden' });
  });

  test("the visitor key: the site's admins only; made once under concurrent first reads", async () => {
    const s = await site({ visibility: 'visitor-auth' }, { rootSpaces: [{}] });
    const admin = await member('admin');
    const editor = await member('edit');
    const ref = { organizationId: org, siteId: s.site._id };
    await expect(h.clients.published.getVisitorAuth(ref, { caller: editor })).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(h.clients.published.getVisitorAuth(ref, { caller: { userId: id('stranger'), isInstanceAdmin: false } })).rejects.toMatchObject({ kind: 'not_found' });
    const answers = await Promise.all(Array.from({ length: 8 }, () => h.clients.published.getVisitorAuth(ref, { caller: admin })));
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
