import { createHmac, timingSafeEqual } from 'node:crypto';
import { unauthenticated } from '@bindery/platform/errors';
import { SITE_TOKEN_PREFIX, type SiteScope } from '@bindery/platform/grpc';
import type { SiteRecord } from '@bindery/sites/domain';
import { newId } from '@bindery/shared/ids';
import type { SitesDeps } from './sites-deps';

/**
 * Site tokens: read-only bearer tokens scoped to one published site's spaces, minted by the
 * published-URL resolver, turned back into their scope by AuthenticateSiteToken for the gateway.
 *
 * Form: `bsite_<payload>.<signature>`, both base64url. The payload is compact JSON
 * `{i: tokenId, s: siteId, o: organizationId, l?: shareLinkId, a?: audience, iat, exp}` (seconds
 * since the epoch); the signature is HMAC-SHA256 of `bsite_<payload>` with the instance's signing key,
 * kept in the sites database (SiteTokenStore). Nothing about a token is stored: a token holds while
 * its signature and expiry do, its site exists and is published, and the share link it was minted
 * through (if any) is active — checked at every authentication, so unpublishing the site or
 * deactivating the link ends it (within the gateway's SITE_TOKEN_CACHE_MS).
 *
 * Tokens are secrets: never logged, put in an error message or an event.
 */

/** How long a token is valid after it is minted unless the minter says otherwise. */
export const SITE_TOKEN_TTL_MS = 60 * 60 * 1000;

/** What a token says about itself (its signed payload). */
export interface SiteTokenClaims {
  tokenId: string;
  siteId: string;
  organizationId: string;
  shareLinkId?: string;
  audience?: string;
  /** issued at, seconds since the epoch */
  iat: number;
  /** expires at, seconds since the epoch */
  exp: number;
}

type Deps = Pick<SitesDeps, 'tokens' | 'sites' | 'clock'>;

/** The signing key, read (or created) once per process and store. */
const keys = new WeakMap<object, Promise<Buffer>>();

function signingKey(deps: Deps): Promise<Buffer> {
  let key = keys.get(deps.tokens);
  if (!key) {
    key = deps.tokens.signingKey(new Date(deps.clock()).toISOString());
    key.catch(() => keys.delete(deps.tokens));
    keys.set(deps.tokens, key);
  }
  return key;
}

const sign = (key: Buffer, signed: string) => createHmac('sha256', key).update(signed).digest();

/**
 * Mints a token for the site (the resolver's, after it decided the visitor may read the site: a
 * published site, through an active share link if `shareLinkId`). Side effects: none (the key is
 * created on first use).
 */
export async function mintSiteToken(
  deps: Deps,
  site: Pick<SiteRecord, '_id' | 'organizationId'>,
  options: { shareLinkId?: string; audience?: string; ttlMs?: number } = {},
): Promise<{ token: string; claims: SiteTokenClaims }> {
  const iat = Math.floor(deps.clock() / 1000);
  const claims: SiteTokenClaims = {
    tokenId: newId(),
    siteId: site._id,
    organizationId: site.organizationId,
    ...(options.shareLinkId ? { shareLinkId: options.shareLinkId } : {}),
    ...(options.audience ? { audience: options.audience } : {}),
    iat,
    exp: iat + Math.ceil((options.ttlMs ?? SITE_TOKEN_TTL_MS) / 1000),
  };
  const compact = {
    i: claims.tokenId,
    s: claims.siteId,
    o: claims.organizationId,
    ...(claims.shareLinkId ? { l: claims.shareLinkId } : {}),
    ...(claims.audience ? { a: claims.audience } : {}),
    iat: claims.iat,
    exp: claims.exp,
  };
  const signed = `${SITE_TOKEN_PREFIX}${Buffer.from(JSON.stringify(compact)).toString('base64url')}`;
  return { token: `${signed}.${sign(await signingKey(deps), signed).toString('base64url')}`, claims };
}

const NOT_VALID = 'The site token is not valid.';
const B64URL = /^[A-Za-z0-9_-]+$/;
const optionalString = (v: unknown) => v === undefined || (typeof v === 'string' && v.length > 0);

/** The claims of a token signed with this instance's key and not expired; throws unauthenticated otherwise. */
export async function verifySiteToken(deps: Deps, token: string): Promise<SiteTokenClaims> {
  if (!token.startsWith(SITE_TOKEN_PREFIX) || token.length > 4096) throw unauthenticated(NOT_VALID);
  const dot = token.lastIndexOf('.');
  const signed = token.slice(0, dot);
  const payload = signed.slice(SITE_TOKEN_PREFIX.length);
  const signature = token.slice(dot + 1);
  if (dot < 0 || !B64URL.test(payload) || !B64URL.test(signature)) throw unauthenticated(NOT_VALID);
  const expected = sign(await signingKey(deps), signed);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw unauthenticated(NOT_VALID);
  let c: Record<string, unknown>;
  try {
    c = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw unauthenticated(NOT_VALID);
  }
  const wellFormed =
    c !== null &&
    typeof c === 'object' &&
    [c.i, c.s, c.o].every((v) => typeof v === 'string' && v.length > 0) &&
    optionalString(c.l) &&
    optionalString(c.a) &&
    Number.isInteger(c.iat) &&
    Number.isInteger(c.exp);
  if (!wellFormed) throw unauthenticated(NOT_VALID);
  const claims: SiteTokenClaims = {
    tokenId: c.i as string,
    siteId: c.s as string,
    organizationId: c.o as string,
    ...(c.l ? { shareLinkId: c.l as string } : {}),
    ...(c.a ? { audience: c.a as string } : {}),
    iat: c.iat as number,
    exp: c.exp as number,
  };
  if (deps.clock() >= claims.exp * 1000) throw unauthenticated('The site token has expired.');
  return claims;
}

/**
 * AuthenticateSiteToken: the scope of a token that still holds — a valid signature, not expired,
 * its site there and published, its share link (if minted through one) active — with the spaces the
 * site publishes now. Anything else is unauthenticated, saying nothing about which check failed
 * beyond expiry. Reads only.
 */
export async function authenticateSiteToken(deps: Deps, token: string): Promise<SiteScope> {
  const claims = await verifySiteToken(deps, token);
  const site = await deps.sites.get(claims.organizationId, claims.siteId);
  if (!site?.published) throw unauthenticated(NOT_VALID);
  if (claims.shareLinkId && !(await deps.tokens.shareLinkIsActive(claims.organizationId, claims.siteId, claims.shareLinkId))) throw unauthenticated(NOT_VALID);
  return {
    organizationId: claims.organizationId,
    siteId: claims.siteId,
    spaceIds: await deps.tokens.publishedSpaceIds(claims.organizationId, claims.siteId),
    tokenId: claims.tokenId,
  };
}
