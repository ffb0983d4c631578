import { createHmac, randomBytes } from 'node:crypto';
import { identityStandIn } from '@bindery/identity/projection';
import { connectMongo } from '@bindery/platform/mongo';
import { COLLECTIONS, SiteTokenStore } from '@bindery/sites/data-access';
import type { SiteRecord } from '@bindery/sites/domain';
import { connectSites } from '@bindery/sites/client';
import { infraEnv, ServiceUnderTest, startServiceUnderTest } from '@bindery/shared/testing';
import { sitesServiceWith } from './sites-server';
import type { SitesDeps } from './sites-deps';
import { mintSiteToken, SITE_TOKEN_TTL_MS } from './site-tokens';

const org = `org-${randomBytes(3).toString('hex')}`;
const T0 = Date.parse('2026-03-01T00:00:00.000Z');

describe('site tokens (in process, real MongoDB and Kafka)', () => {
  let now = T0;
  let service: ServiceUnderTest<SitesDeps>;
  let clients: ReturnType<typeof connectSites>;
  let deps: SitesDeps;

  beforeAll(async () => {
    service = await startServiceUnderTest(sitesServiceWith({ clock: () => now, accessSource: identityStandIn }));
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

  /** A site as its repository stores it, with live site spaces of these spaces (and one deleted space). */
  async function site(options: { published?: boolean; spaces?: string[] } = {}): Promise<SiteRecord> {
    const id = `site${randomBytes(5).toString('hex')}`;
    const at = new Date(now).toISOString();
    const record: SiteRecord = {
      _id: id,
      organizationId: org,
      type: 'basic',
      title: 'Docs',
      basename: id,
      visibility: 'public',
      published: options.published ?? true,
      agentsContext: 'included',
      siteSpaces: 0,
      createdAt: at,
      updatedAt: at,
      structureVersion: 0,
    };
    await deps.sites.insert(record, []);
    const spaces = options.spaces ?? [`spA${id}`, `spB${id}`];
    const row = (spaceId: string, order: number, extra: object = {}) => ({
      _id: `ss${randomBytes(6).toString('hex')}`,
      organizationId: org,
      siteId: id,
      spaceId,
      path: `p${order}`,
      order,
      createdAt: at,
      updatedAt: at,
      ...extra,
    });
    await deps.db.collection(COLLECTIONS.siteSpaces).insertMany([...spaces.map((s, i) => row(s, i)), row(`gone${id}`, spaces.length, { spaceDeletedAt: at })] as never[]);
    return record;
  }

  async function shareLink(s: SiteRecord, active = true): Promise<string> {
    const id = `sl${randomBytes(6).toString('hex')}`;
    const at = new Date(now).toISOString();
    await deps.db
      .collection(COLLECTIONS.shareLinks)
      .insertOne({ _id: id, organizationId: org, siteId: s._id, name: 'Preview', active, key: randomBytes(16).toString('hex'), createdAt: at, updatedAt: at } as never);
    return id;
  }

  const authenticate = (token: string) => clients.published.authenticateSiteToken({ token });
  /** How authenticating was refused (its kind and message), or 'ok'. */
  const refusal = (token: string) =>
    authenticate(token).then(
      () => 'ok',
      (err: { kind: string; message: string }) => {
        // whatever the reason, the answer never carries the token
        if (token.length > 8) expect(err.message).not.toContain(token.slice(6, 14));
        return `${err.kind}: ${err.message}`;
      },
    );

  test("a token minted for a published site answers its scope: the site's live site spaces, no caller needed", async () => {
    const s = await site({ spaces: ['spaceB', 'spaceA', 'spaceA'] });
    const { token, claims } = await mintSiteToken(deps, s);
    expect(token).toMatch(/^bsite_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(claims).toMatchObject({ siteId: s._id, organizationId: org, iat: T0 / 1000, exp: (T0 + SITE_TOKEN_TTL_MS) / 1000 });
    expect(await authenticate(token)).toEqual({ organizationId: org, siteId: s._id, spaceIds: ['spaceA', 'spaceB'], tokenId: claims.tokenId });
    // the scope follows the site: a space added later is in it at the next authentication
    await deps.db
      .collection(COLLECTIONS.siteSpaces)
      .insertOne({ _id: `ss${randomBytes(6).toString('hex')}`, organizationId: org, siteId: s._id, spaceId: 'spaceC', path: 'c', order: 9 } as never);
    expect((await authenticate(token)).spaceIds).toEqual(['spaceA', 'spaceB', 'spaceC']);
  });

  test('unpublishing the site ends its tokens; publishing it again brings them back until they expire', async () => {
    const s = await site();
    const { token } = await mintSiteToken(deps, s);
    expect(await refusal(token)).toBe('ok');
    await deps.sites.changeSettings(org, s._id, { set: { published: false }, unset: [], at: new Date().toISOString() }, []);
    expect(await refusal(token)).toBe('unauthenticated: The site token is not valid.');
    await deps.sites.changeSettings(org, s._id, { set: { published: true }, unset: [], at: new Date().toISOString() }, []);
    expect(await refusal(token)).toBe('ok');
    // a deleted site's tokens end too
    await deps.sites.remove(org, s._id, new Date(now).toISOString(), []);
    expect(await refusal(token)).toBe('unauthenticated: The site token is not valid.');
  });

  test('a token minted through a share link ends when the link is deactivated or deleted; a link of another site never held', async () => {
    const s = await site();
    const link = await shareLink(s);
    const { token } = await mintSiteToken(deps, s, { shareLinkId: link });
    expect(await refusal(token)).toBe('ok');
    await deps.db.collection(COLLECTIONS.shareLinks).updateOne({ _id: link } as never, { $set: { active: false } });
    expect(await refusal(token)).toBe('unauthenticated: The site token is not valid.');
    await deps.db.collection(COLLECTIONS.shareLinks).updateOne({ _id: link } as never, { $set: { active: true } });
    expect(await refusal(token)).toBe('ok');
    await deps.db.collection(COLLECTIONS.shareLinks).deleteOne({ _id: link } as never);
    expect(await refusal(token)).toBe('unauthenticated: The site token is not valid.');

    const other = await site();
    const othersLink = await shareLink(other);
    expect(await refusal((await mintSiteToken(deps, s, { shareLinkId: othersLink })).token)).toBe('unauthenticated: The site token is not valid.');
    // a site token without a link does not depend on the site's links
    expect(await refusal((await mintSiteToken(deps, s)).token)).toBe('ok');
  });

  test('a token holds only while it opens the site as the site is now: share-link needs its link, visitor-auth a verified visitor', async () => {
    const s = await site();
    const link = await shareLink(s);
    const plain = (await mintSiteToken(deps, s)).token;
    const viaLink = (await mintSiteToken(deps, s, { shareLinkId: link })).token;
    const visitor = (await mintSiteToken(deps, s, { visitor: { verified: true, claims: { sub: 'v', unsigned: {} } } })).token;
    const answers = async () => ({ plain: await refusal(plain), viaLink: await refusal(viaLink), visitor: await refusal(visitor) });
    const NOT_VALID = 'unauthenticated: The site token is not valid.';
    expect(await answers()).toEqual({ plain: 'ok', viaLink: 'ok', visitor: 'ok' });
    await deps.sites.changeSettings(org, s._id, { set: { visibility: 'share-link' }, unset: [], at: new Date().toISOString() }, []);
    expect(await answers()).toEqual({ plain: NOT_VALID, viaLink: 'ok', visitor: NOT_VALID });
    await deps.sites.changeSettings(org, s._id, { set: { visibility: 'visitor-auth' }, unset: [], at: new Date().toISOString() }, []);
    expect(await answers()).toEqual({ plain: NOT_VALID, viaLink: NOT_VALID, visitor: 'ok' });
  });

  test('the claims ride in the token within a bound; it never outlives a visitor token', async () => {
    const s = await site();
    const { claims } = await mintSiteToken(deps, s, { visitor: { verified: true, claims: { plan: 'pro', unsigned: {} } }, notAfter: T0 + 60_000 });
    expect(claims).toMatchObject({ verifiedVisitor: true, visitorClaims: { plan: 'pro', unsigned: {} }, exp: (T0 + 60_000) / 1000 });
    // no claims at all leaves them out
    expect((await mintSiteToken(deps, s, { visitor: { verified: false, claims: { unsigned: {} } } })).claims.visitorClaims).toBeUndefined();
    await expect(mintSiteToken(deps, s, { visitor: { verified: false, claims: { unsigned: { big: 'x'.repeat(5000) } } } })).rejects.toMatchObject({ kind: 'invalid' });
  });

  test('expires: valid until its exp, refused from then on (injected clock)', async () => {
    const s = await site();
    const { token } = await mintSiteToken(deps, s, { ttlMs: 60_000 });
    now = T0 + 59_999;
    expect(await refusal(token)).toBe('ok');
    now = T0 + 60_000;
    expect(await refusal(token)).toBe('unauthenticated: The site token has expired.');
    now = T0 + SITE_TOKEN_TTL_MS;
    expect(await refusal((await mintSiteToken(deps, s)).token)).toBe('ok');
  });

  /** What a JWT reader such as jwt-decode does: the second of three dot-separated parts, base64url JSON. */
  const jwtDecode = (token: string, part = 1) => {
    const parts = token.split('.');
    if (parts.length !== 3) throw new Error('not a JWT');
    return JSON.parse(Buffer.from(parts[part], 'base64url').toString('utf8'));
  };

  test('a token reads as a JWT: the header names HS256, the payload is a SiteAPIToken with exp and claims, and the signature is HMAC-SHA256 of header.payload', async () => {
    const s = await site();
    const content = { siteSpaceId: 'ssA', siteSectionId: 'secA', spaceId: 'spaceA', spaceIds: ['spaceA', 'spaceB'] };
    const { token, claims } = await mintSiteToken(deps, s, { visitor: { verified: true, claims: { plan: 'pro', unsigned: { lang: 'fr' } } }, content });
    expect(token.startsWith('bsite_')).toBe(true);
    expect(jwtDecode(token.slice('bsite_'.length), 0)).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(jwtDecode(token)).toEqual({
      kind: 'site',
      jti: claims.tokenId,
      organization: org,
      site: s._id,
      siteSpace: 'ssA',
      siteSection: 'secA',
      space: 'spaceA',
      spaces: ['spaceA', 'spaceB'],
      claims: { plan: 'pro', unsigned: { lang: 'fr' } },
      verifiedVisitor: true,
      iat: T0 / 1000,
      exp: (T0 + SITE_TOKEN_TTL_MS) / 1000,
    });
    // without the prefix it is an HS256 JWT of the instance's key
    const [header, payload, signature] = token.slice('bsite_'.length).split('.');
    const key = await deps.tokens.signingKey(new Date(now).toISOString());
    expect(createHmac('sha256', key).update(`${header}.${payload}`).digest('base64url')).toBe(signature);
    // the scope is the site as it is now, never the payload's spaces
    expect((await authenticate(token)).spaceIds).toEqual([`spA${s._id}`, `spB${s._id}`]);
  });

  test('a tampered, re-signed, truncated or foreign token is refused', async () => {
    const s = await site();
    const other = await site();
    const { token } = await mintSiteToken(deps, s);
    const [header, body, signature] = token.slice('bsite_'.length).split('.');
    const signed = `bsite_${header}.${body}`;
    const payload = jwtDecode(token);
    const withPayload = (p: object) => `bsite_${header}.${Buffer.from(JSON.stringify(p)).toString('base64url')}`;
    const withHeader = (h: object) => `bsite_${Buffer.from(JSON.stringify(h)).toString('base64url')}.${body}`;
    const NOT_VALID = 'unauthenticated: The site token is not valid.';
    const cases: Record<string, string> = {
      // the payload moved to another site (or its expiry pushed, or its claims changed), the signature kept
      'other site': `${withPayload({ ...payload, site: other._id })}.${signature}`,
      'later expiry': `${withPayload({ ...payload, exp: payload.exp + 3600 })}.${signature}`,
      'added claims': `${withPayload({ ...payload, claims: { plan: 'pro' } })}.${signature}`,
      // another algorithm named in the header: none, or the same one spelled otherwise
      'alg none': `${withHeader({ alg: 'none', typ: 'JWT' })}.`,
      'alg none, signature kept': `${withHeader({ alg: 'none', typ: 'JWT' })}.${signature}`,
      'header respelled': `${withHeader({ typ: 'JWT', alg: 'HS256' })}.${signature}`,
      // a signature's first character changed (the last may only touch padding bits)
      signature: `${signed}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`,
      'signed with another key': `${signed}.${createHmac('sha256', randomBytes(32)).update(`${header}.${body}`).digest('base64url')}`,
      'no signature': signed,
      'empty signature': `${signed}.`,
      'no prefix': token.slice('bsite_'.length),
      'the earlier form (payload.signature)': `bsite_${body}.${signature}`,
      'a fourth part': `${token}.${signature}`,
      'not base64url': `bsite_${header}.!!!.${signature}`,
      garbage: 'bsite_x.y.z',
      empty: '',
    };
    for (const [name, forged] of Object.entries(cases)) expect({ name, answer: await refusal(forged) }).toEqual({ name, answer: NOT_VALID });
    expect(await refusal(token)).toBe('ok');
  });

  test('the signing key is created once: concurrent first uses by several replicas agree on one key', async () => {
    const mongo = await connectMongo(infraEnv().MONGODB_URL, `svc_site_keys_${randomBytes(4).toString('hex')}`, 'tests');
    try {
      const replicas = Array.from({ length: 12 }, () => new SiteTokenStore(mongo.db));
      const keys = await Promise.all(replicas.map((r) => r.signingKey(new Date(now).toISOString())));
      expect(new Set(keys.map((k) => k.toString('base64url'))).size).toBe(1);
      expect(keys[0]).toHaveLength(32);
      expect(await mongo.db.collection(COLLECTIONS.signingKeys).countDocuments()).toBe(1);
    } finally {
      await mongo.db.dropDatabase();
      await mongo.close();
    }
  });
});
