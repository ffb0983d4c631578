import { createHmac, timingSafeEqual } from 'node:crypto';
import { invalid, unauthenticated } from '@bindery/platform/errors';
import { SITE_TOKEN_PREFIX, type SiteScope } from '@bindery/platform/grpc';
import { loadShownItems } from '@bindery/sites/data-access';
import { audienceSpaceIds, type SiteRecord } from '@bindery/sites/domain';
import { newId } from '@bindery/shared/ids';
import type { SitesDeps } from './sites-deps';

/**
 * Site tokens: read-only bearer tokens scoped to one published site's spaces, minted by the
 * published-URL resolver, turned back into their scope by AuthenticateSiteToken for the gateway.
 *
 * Form: `bsite_<payload>.<signature>`, both base64url. The payload is compact JSON
 * `{i: tokenId, s: siteId, o: organizationId, l?: shareLinkId, v?: 1, c?: claims, iat, exp}`
 * (seconds since the epoch; `v`: minted for a verified visitor token, `c`: the claims the visitor's
 * conditions were evaluated with); the signature is HMAC-SHA256 of `bsite_<payload>` with the
 * instance's signing key, kept in the sites database (SiteTokenStore). Nothing about a token is
 * stored: a token holds while its signature and expiry do, its site exists and is published, and it
 * still opens the site as the site is now — a share-link site only through its share link, which
 * must be active; a visitor-auth site only for a verified visitor — checked at every authentication,
 * so unpublishing the site, deactivating the link or changing the visibility ends it (within the
 * gateway's SITE_TOKEN_CACHE_MS). Its scope is the site's spaces for that audience now (conditions
 * evaluated with `c`).
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
  /** minted for a visitor whose visitor token was verified (what a visitor-auth site needs) */
  verifiedVisitor?: boolean;
  /** the visitor's claims (signed at the top, `unsigned` below): the conditions' input */
  visitorClaims?: Record<string, unknown>;
  /** issued at, seconds since the epoch */
  iat: number;
  /** expires at, seconds since the epoch */
  exp: number;
}

type Deps = Pick<SitesDeps, 'tokens' | 'sites' | 'clock'>;

/** At most this much of a visitor's claims (JSON) rides in a token: a bearer token stays a header. */
export const SITE_TOKEN_CLAIMS_MAX = 4096;

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

export interface MintOptions {
  /** the share link the visitor came through (share-link sites) */
  shareLinkId?: string;
  /** the visitor: whether their visitor token was verified, and the claims conditions see */
  visitor?: { verified: boolean; claims?: Record<string, unknown> };
  /** validity from now (default SITE_TOKEN_TTL_MS) */
  ttlMs?: number;
  /** an expiry the token must not outlive (a visitor token's), in milliseconds since the epoch */
  notAfter?: number;
}

const hasClaims = (c: Record<string, unknown> | undefined): c is Record<string, unknown> =>
  !!c && Object.entries(c).some(([k, v]) => k !== 'unsigned' || (typeof v === 'object' && v !== null && Object.keys(v).length > 0));

/**
 * Mints a token for the site (the resolver's, after it decided the visitor may read the site: a
 * published site, through an active share link if `shareLinkId`, a verified visitor if
 * `visitor.verified`). Throws invalid when the visitor's claims are over SITE_TOKEN_CLAIMS_MAX.
 * Side effects: none (the key is created on first use).
 */
export async function mintSiteToken(deps: Deps, site: Pick<SiteRecord, '_id' | 'organizationId'>, options: MintOptions = {}): Promise<{ token: string; claims: SiteTokenClaims }> {
  const iat = Math.floor(deps.clock() / 1000);
  let exp = iat + Math.ceil((options.ttlMs ?? SITE_TOKEN_TTL_MS) / 1000);
  if (options.notAfter !== undefined) exp = Math.min(exp, Math.floor(options.notAfter / 1000));
  const visitorClaims = hasClaims(options.visitor?.claims) ? options.visitor.claims : undefined;
  if (visitorClaims && JSON.stringify(visitorClaims).length > SITE_TOKEN_CLAIMS_MAX) throw invalid(`The visitor's claims are over ${SITE_TOKEN_CLAIMS_MAX} characters of JSON.`);
  const claims: SiteTokenClaims = {
    tokenId: newId(),
    siteId: site._id,
    organizationId: site.organizationId,
    ...(options.shareLinkId ? { shareLinkId: options.shareLinkId } : {}),
    ...(options.visitor?.verified ? { verifiedVisitor: true } : {}),
    ...(visitorClaims ? { visitorClaims } : {}),
    iat,
    exp,
  };
  const compact = {
    i: claims.tokenId,
    s: claims.siteId,
    o: claims.organizationId,
    ...(claims.shareLinkId ? { l: claims.shareLinkId } : {}),
    ...(claims.verifiedVisitor ? { v: 1 } : {}),
    ...(claims.visitorClaims ? { c: claims.visitorClaims } : {}),
    iat: claims.iat,
    exp: claims.exp,
  };
  const signed = `${SITE_TOKEN_PREFIX}${Buffer.from(JSON.stringify(compact)).toString('base64url')}`;
  return { token: `${signed}.${sign(await signingKey(deps), signed).toString('base64url')}`, claims };
}

const NOT_VALID = 'The site token is not valid.';
/** the longest token: the claims' bound, base64url, with room for the rest */
const SITE_TOKEN_MAX = 8192;
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const B64URL = /^[A-Za-z0-9_-]+$/;
const optionalString = (v: unknown) => v === undefined || (typeof v === 'string' && v.length > 0);

/** The claims of a token signed with this instance's key and not expired; throws unauthenticated otherwise. */
export async function verifySiteToken(deps: Deps, token: string): Promise<SiteTokenClaims> {
  if (!token.startsWith(SITE_TOKEN_PREFIX) || token.length > SITE_TOKEN_MAX) throw unauthenticated(NOT_VALID);
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
    (c.v === undefined || c.v === 1) &&
    (c.c === undefined || isObject(c.c)) &&
    Number.isInteger(c.iat) &&
    Number.isInteger(c.exp);
  if (!wellFormed) throw unauthenticated(NOT_VALID);
  const claims: SiteTokenClaims = {
    tokenId: c.i as string,
    siteId: c.s as string,
    organizationId: c.o as string,
    ...(c.l ? { shareLinkId: c.l as string } : {}),
    ...(c.v === 1 ? { verifiedVisitor: true } : {}),
    ...(c.c ? { visitorClaims: c.c as Record<string, unknown> } : {}),
    iat: c.iat as number,
    exp: c.exp as number,
  };
  if (deps.clock() >= claims.exp * 1000) throw unauthenticated('The site token has expired.');
  return claims;
}

/**
 * AuthenticateSiteToken: the scope of a token that still holds — a valid signature, not expired,
 * its site there and published, and opening it as it is now: a share-link site only through a
 * share link (the token's, active), a visitor-auth site only for a verified visitor; a share link
 * the token was minted through must be active whatever the visibility. The scope's spaces are those
 * the site publishes now to the token's audience (audienceSpaceIds: hidden site spaces and those
 * whose condition, or whose section's, fails for its claims left out). Anything else is
 * unauthenticated, saying nothing about which check failed beyond expiry. Reads only.
 */
export async function authenticateSiteToken(deps: Deps & Pick<SitesDeps, 'sections' | 'siteSpaces'>, token: string): Promise<SiteScope> {
  const claims = await verifySiteToken(deps, token);
  const site = await deps.sites.get(claims.organizationId, claims.siteId);
  if (!site?.published) throw unauthenticated(NOT_VALID);
  if (site.visibility === 'share-link' && !claims.shareLinkId) throw unauthenticated(NOT_VALID);
  if (site.visibility === 'visitor-auth' && !claims.verifiedVisitor) throw unauthenticated(NOT_VALID);
  if (claims.shareLinkId && !(await deps.tokens.shareLinkIsActive(claims.organizationId, claims.siteId, claims.shareLinkId))) throw unauthenticated(NOT_VALID);
  const visitor = { claims: claims.visitorClaims ?? {} };
  return {
    organizationId: claims.organizationId,
    siteId: claims.siteId,
    spaceIds: audienceSpaceIds(await loadShownItems(deps, site), visitor),
    tokenId: claims.tokenId,
  };
}
