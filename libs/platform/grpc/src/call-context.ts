import { createHmac, timingSafeEqual } from 'node:crypto';
import { Metadata } from '@grpc/grpc-js';

/**
 * What a site token may read: the published spaces of one site (see site tokens in the sites
 * service). Such a caller is no user: services open only the reads they list as `siteReadable`.
 */
export interface SiteScope {
  organizationId: string;
  siteId: string;
  spaceIds: string[];
  /** the token's id (a principal for logs and traces; never the token) */
  tokenId: string;
}

/** Who is calling: set by the gateway from the authenticated token, carried in call metadata. */
export interface Caller {
  userId: string;
  isInstanceAdmin: boolean;
  /** present when the token is a site token: the caller reads only what this scope names */
  site?: SiteScope;
}

export interface CallContext {
  caller?: Caller;
  /** the client's key for a create or merge it may retry (see idempotencyKeyFromMetadata) */
  idempotencyKey?: string;
}

const USER = 'x-bindery-user-id';
const INSTANCE_ADMIN = 'x-bindery-instance-admin';
const SIGNATURE = 'x-bindery-caller-sig';
const SITE = 'x-bindery-site';

/**
 * With BINDERY_INTERNAL_SECRET set (the same value in every process), the caller in metadata is
 * signed by whoever authenticated it and verified by the service, so reaching a service's port is
 * not enough to act as someone. Without it the metadata is trusted (the network must be closed).
 */
function internalSecret(): string | undefined {
  return process.env.BINDERY_INTERNAL_SECRET || undefined;
}

// A caller's signature depends only on the secret and the caller: remembered for the callers seen
// last (an HMAC per call showed on the gateway's profile). Bounded, oldest forgotten first.
const signatures = new Map<string, Buffer>();
const SIGNATURES_KEPT = 10_000;

/** What the signature covers: the user, the admin flag and, for a site caller, its whole scope. */
function signedText(userId: string, isInstanceAdmin: boolean, site: string | undefined): string {
  return `${userId}\n${isInstanceAdmin ? 1 : 0}${site === undefined ? '' : `\n${site}`}`;
}

function signatureOf(secret: string, userId: string, isInstanceAdmin: boolean, site?: string): Buffer {
  const text = signedText(userId, isInstanceAdmin, site);
  const key = `${secret}\n${text}`;
  let sig = signatures.get(key);
  if (!sig) {
    sig = createHmac('sha256', secret).update(text).digest();
    signatures.set(key, sig);
    if (signatures.size > SIGNATURES_KEPT) signatures.delete(signatures.keys().next().value as string);
  }
  return sig;
}

// A site scope in metadata: `<organizationId>;<siteId>;<tokenId>;<spaceId>,<spaceId>,...`. Ids are
// URL-safe, so neither separator can occur inside one; anything else is refused, not repaired.
const ID = /^[A-Za-z0-9_-]{1,128}$/;

function siteToText(site: SiteScope): string {
  const ids = [site.organizationId, site.siteId, site.tokenId, ...site.spaceIds];
  if (!ids.every((id) => ID.test(id))) throw new Error('a site scope names ids that are not URL-safe');
  return `${site.organizationId};${site.siteId};${site.tokenId};${site.spaceIds.join(',')}`;
}

function siteFromText(text: string): SiteScope | undefined {
  const parts = text.split(';');
  if (parts.length !== 4) return undefined;
  const [organizationId, siteId, tokenId, spaces] = parts;
  const spaceIds = spaces ? spaces.split(',') : [];
  if (![organizationId, siteId, tokenId, ...spaceIds].every((id) => ID.test(id))) return undefined;
  return { organizationId, siteId, spaceIds, tokenId };
}

export function callerToMetadata(caller: Caller | undefined, metadata = new Metadata()): Metadata {
  if (caller) {
    metadata.set(USER, caller.userId);
    if (caller.isInstanceAdmin) metadata.set(INSTANCE_ADMIN, 'true');
    const site = caller.site ? siteToText(caller.site) : undefined;
    if (site !== undefined) metadata.set(SITE, site);
    const secret = internalSecret();
    if (secret) metadata.set(SIGNATURE, signatureOf(secret, caller.userId, caller.isInstanceAdmin, site).toString('base64url'));
  }
  return metadata;
}

/**
 * The caller the metadata names; none when it is missing, malformed or, with a secret, not signed
 * with it (the signature covers a site caller's scope: a changed, added or removed scope breaks it).
 */
export function callerFromMetadata(metadata: Metadata): Caller | undefined {
  const [userId] = metadata.get(USER);
  if (typeof userId !== 'string' || !userId) return undefined;
  const isInstanceAdmin = metadata.get(INSTANCE_ADMIN)[0] === 'true';
  const siteValues = metadata.get(SITE);
  if (siteValues.length > 1) return undefined;
  const [siteText] = siteValues;
  if (siteText !== undefined && typeof siteText !== 'string') return undefined;
  const site = siteText === undefined ? undefined : siteFromText(siteText);
  // A site caller is never an administrator: such metadata was not written by callerToMetadata.
  if (siteText !== undefined && (!site || isInstanceAdmin)) return undefined;
  const secret = internalSecret();
  if (secret) {
    const [sent] = metadata.get(SIGNATURE);
    const expected = signatureOf(secret, userId, isInstanceAdmin, siteText);
    const given = typeof sent === 'string' ? Buffer.from(sent, 'base64url') : Buffer.alloc(0);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  }
  return site ? { userId, isInstanceAdmin, site } : { userId, isInstanceAdmin };
}

/**
 * The caller of a site token: user id `site:<tokenId>`, which no user id can be (ids carry no
 * colon), never an instance admin, with the token's scope.
 */
export const SITE_CALLER_PREFIX = 'site:';

export function siteCaller(site: SiteScope): Caller {
  return { userId: `${SITE_CALLER_PREFIX}${site.tokenId}`, isInstanceAdmin: false, site };
}

/**
 * Every site token begins with this (the sites service mints them): the gateway sends such bearer
 * tokens to sites, every other token to identity. No API token identity issues begins with it.
 */
export const SITE_TOKEN_PREFIX = 'bsite_';

/** What a site caller is told when it calls a method no service opened to site tokens. */
export const SITE_TOKEN_REFUSAL = 'A site token only reads the published content of its site.';

/**
 * A service acting on its own behalf (search reading the spaces it indexes): user id `service:<name>`,
 * which no user id can be (ids carry no colon), and instance admin. With BINDERY_INTERNAL_SECRET set
 * only a process holding the secret can sign it; the gateway never signs one for a token.
 */
export const INTERNAL_CALLER_PREFIX = 'service:';

export function internalCaller(service: string): Caller {
  return { userId: `${INTERNAL_CALLER_PREFIX}${service}`, isInstanceAdmin: true };
}

export function isInternalCaller(userId: string): boolean {
  return userId.startsWith(INTERNAL_CALLER_PREFIX);
}

export function callerSignatureRequired(): boolean {
  return internalSecret() !== undefined;
}

const IDEMPOTENCY_KEY = 'x-bindery-idempotency-key';

/**
 * An idempotency key: 1 to 255 printable ASCII characters without spaces, the `Idempotency-Key`
 * header's form (the gateway validates it; the server ignores a malformed one rather than trusting it).
 */
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x21-\\x7E]{1,255}$';
const keyForm = new RegExp(IDEMPOTENCY_KEY_PATTERN);

export function idempotencyKeyToMetadata(key: string | undefined, metadata = new Metadata()): Metadata {
  if (key !== undefined) metadata.set(IDEMPOTENCY_KEY, key);
  return metadata;
}

export function idempotencyKeyFromMetadata(metadata: Metadata): string | undefined {
  const [key] = metadata.get(IDEMPOTENCY_KEY);
  return typeof key === 'string' && keyForm.test(key) ? key : undefined;
}
