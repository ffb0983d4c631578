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
 * Form: `bsite_<header>.<payload>.<signature>`, all three base64url: with the `bsite_` prefix taken
 * off, an HS256 JSON Web Token. The header is `{"alg":"HS256","typ":"JWT"}`; the payload is JSON in
 * the shape of GitBook's SiteAPIToken (0.202.0): `{kind: 'site', jti, organization, site, siteSpace?,
 * siteSection?, space?, spaces, claims?, shareLink?, verifiedVisitor?, iat, exp}` (seconds since the
 * epoch; `spaces` the site's spaces for this audience when minted, `claims` the claims the visitor's
 * conditions were evaluated with, `verifiedVisitor` minted for a verified visitor token, `shareLink`
 * the share link it was minted through); the signature is HMAC-SHA256 of `<header>.<payload>` (the
 * prefix off) with the instance's signing key, kept in the sites database (SiteTokenStore). The
 * payload's `spaces`, `siteSpace` and `space` tell a renderer what it was minted for; the scope is
 * never read from them. Nothing about a token is stored: a token holds while its signature and expiry do, its site exists and is published, and it
 * still opens the site as the site is now — a share-link site only through its share link, which
 * must be active; a visitor-auth site only for a verified visitor — checked at every authentication,
 * so unpublishing the site, deactivating the link or changing the visibility ends it (within the
 * gateway's SITE_TOKEN_CACHE_MS). Its scope is the site's spaces for that audience now (conditions
 * evaluated with `claims`).
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
  /** what the resolver opened when it minted the token (GitBook's siteSpace, siteSection, space, spaces) */
  content?: MintedContent;
  /** issued at, seconds since the epoch */
  iat: number;
  /** expires at, seconds since the epoch */
  exp: number;
}

/** What a token was minted to render: the site space, its section, its space, and the site's spaces for the audience. */
export interface MintedContent {
  siteSpaceId: string;
  siteSectionId?: string;
  spaceId: string;
  spaceIds: string[];
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

/** The one header every site token has (compared as it is written: no other algorithm is taken). */
const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

const sign = (key: Buffer, signed: string) => createHmac('sha256', key).update(signed).digest();

export interface MintOptions {
  /** the share link the visitor came through (share-link sites) */
  shareLinkId?: string;
  /** the visitor: whether their visitor token was verified, and the claims conditions see */
  visitor?: { verified: boolean; claims?: Record<string, unknown> };
  /** what the resolver opened (carried in the payload for renderers) */
  content?: MintedContent;
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
    ...(options.content ? { content: options.content } : {}),
    iat,
    exp,
  };
  const payload = {
    kind: 'site',
    jti: claims.tokenId,
    organization: claims.organizationId,
    site: claims.siteId,
    ...(options.content
      ? {
          siteSpace: options.content.siteSpaceId,
          ...(options.content.siteSectionId ? { siteSection: options.content.siteSectionId } : {}),
          space: options.content.spaceId,
        }
      : {}),
    spaces: options.content?.spaceIds ?? [],
    ...(claims.visitorClaims ? { claims: claims.visitorClaims } : {}),
    ...(claims.shareLinkId ? { shareLink: claims.shareLinkId } : {}),
    ...(claims.verifiedVisitor ? { verifiedVisitor: true } : {}),
    iat: claims.iat,
    exp: claims.exp,
  };
  const signed = `${HEADER}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  return { token: `${SITE_TOKEN_PREFIX}${signed}.${sign(await signingKey(deps), signed).toString('base64url')}`, claims };
}

const NOT_VALID = 'The site token is not valid.';
/** the longest token: the claims' bound and a few hundred space ids, base64url, with room for the rest */
const SITE_TOKEN_MAX = 16384;
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const B64URL = /^[A-Za-z0-9_-]+$/;
const isId = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const optionalId = (v: unknown) => v === undefined || isId(v);

/** The claims of a token signed with this instance's key and not expired; throws unauthenticated otherwise. */
export async function verifySiteToken(deps: Deps, token: string): Promise<SiteTokenClaims> {
  if (!token.startsWith(SITE_TOKEN_PREFIX) || token.length > SITE_TOKEN_MAX) throw unauthenticated(NOT_VALID);
  const parts = token.slice(SITE_TOKEN_PREFIX.length).split('.');
  if (parts.length !== 3 || parts[0] !== HEADER || !B64URL.test(parts[1]) || !B64URL.test(parts[2])) throw unauthenticated(NOT_VALID);
  const [, payload, signature] = parts;
  const expected = sign(await signingKey(deps), `${HEADER}.${payload}`);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw unauthenticated(NOT_VALID);
  let c: Record<string, unknown>;
  try {
    c = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw unauthenticated(NOT_VALID);
  }
  const wellFormed =
    isObject(c) &&
    c.kind === 'site' &&
    [c.jti, c.organization, c.site].every(isId) &&
    [c.siteSpace, c.siteSection, c.space, c.shareLink].every(optionalId) &&
    Array.isArray(c.spaces) &&
    c.spaces.every(isId) &&
    (c.verifiedVisitor === undefined || c.verifiedVisitor === true) &&
    (c.claims === undefined || isObject(c.claims)) &&
    Number.isInteger(c.iat) &&
    Number.isInteger(c.exp);
  if (!wellFormed) throw unauthenticated(NOT_VALID);
  const claims: SiteTokenClaims = {
    tokenId: c.jti as string,
    siteId: c.site as string,
    organizationId: c.organization as string,
    ...(c.shareLink ? { shareLinkId: c.shareLink as string } : {}),
    ...(c.verifiedVisitor ? { verifiedVisitor: true } : {}),
    ...(c.claims ? { visitorClaims: c.claims as Record<string, unknown> } : {}),
    ...(c.siteSpace && c.space
      ? {
          content: {
            siteSpaceId: c.siteSpace as string,
            ...(c.siteSection ? { siteSectionId: c.siteSection as string } : {}),
            spaceId: c.space as string,
            spaceIds: c.spaces as string[],
          },
        }
      : {}),
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
