import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Visitor tokens: the JWTs a site owner's backend signs for the visitors of a `visitor-auth` site
 * (and for adaptive content on any site). Sites keeps one key per site (the official
 * SitePublishingAuth `privateKey`); a token is an HS256 JWT whose secret is that key's text (what
 * `jwt.sign(claims, privateKey)` does). Only HS256 is taken — never `none`, never another algorithm a
 * header could ask for — and the token must carry `exp`; `nbf`, when present, is honoured.
 * A token is a secret: never logged, echoed, or put in an error message.
 */
export const VISITOR_TOKEN_MAX = 8192;

export interface VerifiedVisitor {
  /** every claim of the token's payload: what conditions see as `visitor.claims` */
  claims: Record<string, unknown>;
  /** the token's expiry, in milliseconds since the epoch */
  expiresAt: number;
}

const B64URL = /^[A-Za-z0-9_-]*$/;
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function json(part: string): unknown {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The token's claims when it is an HS256 JWT signed with `key`, not expired and already valid at `now`; undefined otherwise. */
export function verifyVisitorToken(token: string, key: string, now: number): VerifiedVisitor | undefined {
  if (!key || token.length > VISITOR_TOKEN_MAX) return undefined;
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((p) => B64URL.test(p)) || !parts[0] || !parts[1] || !parts[2]) return undefined;
  const [header, payload, signature] = parts;
  const h = json(header);
  if (!isObject(h) || h.alg !== 'HS256') return undefined;
  const expected = createHmac('sha256', Buffer.from(key, 'utf8')).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const claims = json(payload);
  if (!isObject(claims) || typeof claims.exp !== 'number' || !Number.isFinite(claims.exp)) return undefined;
  if (now >= claims.exp * 1000) return undefined;
  if (claims.nbf !== undefined && (typeof claims.nbf !== 'number' || now < claims.nbf * 1000)) return undefined;
  return { claims, expiresAt: claims.exp * 1000 };
}

/** An HS256 JWT of these claims signed with `key` (what a site owner's backend does; tests and tools use it). */
export function signVisitorToken(claims: Record<string, unknown>, key: string): string {
  const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const signed = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
  return `${signed}.${createHmac('sha256', Buffer.from(key, 'utf8')).update(signed).digest('base64url')}`;
}
