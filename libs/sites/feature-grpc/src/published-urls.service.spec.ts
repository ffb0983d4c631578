import { COLLECTIONS } from '@bindery/sites/data-access';
import { signVisitorToken } from '@bindery/sites/domain';
import { startServiceUnderTest } from '@bindery/shared/testing';
import { id, org, publishedUrlsHarness, READER, T0 } from './testing/published-urls-harness';
import { SITE_TOKEN_TTL_MS, verifySiteToken } from './site-tokens';

/** Published URLs resolved by site kind: public, sections, not found, share links, visitor auth, conditions. */
describe('ResolvePublishedUrl (in process, real MongoDB and Kafka)', () => {
  const h = publishedUrlsHarness(startServiceUnderTest);
  const { resolve, outcome, where, scopeOf, site, shareLink, member, spaces } = h;

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
    const claims = await verifySiteToken(h.deps, a.apiToken);
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
    expect((await verifySiteToken(h.deps, a.apiToken)).shareLinkId).toBe(link.id);
    expect(await scopeOf(a)).toEqual([s.siteSpaces[0].spaceId]);
    // the token ends with the link
    await h.deps.db.collection(COLLECTIONS.shareLinks).updateOne({ _id: link.id } as never, { $set: { active: false } });
    await expect(h.clients.published.authenticateSiteToken({ token: a.apiToken })).rejects.toMatchObject({ kind: 'unauthenticated' });
    expect(await outcome(withKey(link.key))).toBe('not_found');
  });

  test('a visitor-auth site: only with a visitor token its key verifies; the site token expires with the visitor token', async () => {
    const s = await site({ visibility: 'visitor-auth' }, { rootSpaces: [{}] });
    const keyless = await site({ visibility: 'visitor-auth' }, { rootSpaces: [{}] });
    const admin = await member('admin');
    const key = (await h.clients.published.getVisitorAuth({ organizationId: org, siteId: s.site._id }, { caller: admin })).privateKey;
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
    expect(await h.deps.visitorKeys.get(org, keyless.site._id)).toBeUndefined();

    const a = await resolve(`${s.url}/intro`, { token: good });
    expect(a).toMatchObject({ siteSpaceId: s.siteSpaces[0]._id, pathname: 'intro' });
    const claims = await verifySiteToken(h.deps, a.apiToken);
    expect(claims).toMatchObject({ verifiedVisitor: true, exp, visitorClaims: { sub: 'visitor-1', plan: 'pro', exp, unsigned: {} } });
    expect(await scopeOf(a)).toEqual([s.siteSpaces[0].spaceId]);
    // a site token without a verified visitor never opens a visitor-auth site (nor one minted before it became one)
    const publicSite = await site({}, { rootSpaces: [{}] });
    const plain = await resolve(publicSite.url);
    await h.deps.sites.changeSettings(org, publicSite.site._id, { set: { visibility: 'visitor-auth' }, unset: [], at: new Date().toISOString() }, []);
    await expect(h.clients.published.authenticateSiteToken({ token: plain.apiToken })).rejects.toMatchObject({ kind: 'unauthenticated' });
    // regenerating the key: tokens signed with the old one stop resolving at once
    const fresh = (await h.clients.published.regenerateVisitorAuth({ organizationId: org, siteId: s.site._id }, { caller: admin })).privateKey;
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
    const key = (await h.clients.published.getVisitorAuth({ organizationId: org, siteId: s.site._id }, { caller: admin })).privateKey;
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
    await h.deps.db.collection(COLLECTIONS.siteSpaces).updateOne({ _id: open._id } as never, { $set: { condition: 'false' } });
    expect(await scopeOf(asPro)).toEqual([docs.spaceId, pro.spaceId].sort());
  });
});
