import type { IncomingHttpHeaders } from 'node:http';

/**
 * The browser session's cookie: set when a SAML sign-in completes, accepted beside API tokens (a
 * request with an Authorization header is authenticated by it alone). `HttpOnly; Secure;
 * SameSite=Lax; Path=/`; `Secure` is left out only when the gateway's own public URL is plain
 * http on 127.0.0.1 or localhost (a development instance, where browsers would drop a Secure cookie).
 */
export const SESSION_COOKIE = 'bindery_session';

/** Methods that change state: with a cookie, they must come from this origin (CSRF). */
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The session cookie's value, if the request carries one. */
export function sessionCookieOf(cookieHeader: string | undefined): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

export function cookieIsSecure(publicUrl: string): boolean {
  const url = new URL(publicUrl);
  return !(url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname));
}

function attributes(publicUrl: string): string {
  return `Path=/; HttpOnly; SameSite=Lax${cookieIsSecure(publicUrl) ? '; Secure' : ''}`;
}

/** The Set-Cookie of a new session, ending when the session does. */
export function sessionSetCookie(secret: string, expiresAt: Date, publicUrl: string): string {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  return `${SESSION_COOKIE}=${secret}; Max-Age=${maxAge}; ${attributes(publicUrl)}`;
}

/** The Set-Cookie that removes the session cookie (logout). */
export function clearedSessionCookie(publicUrl: string): string {
  return `${SESSION_COOKIE}=; Max-Age=0; ${attributes(publicUrl)}`;
}

/**
 * Whether a request authenticated by cookie may go on: reads always; a state-changing request only
 * when the browser says it comes from this origin — `Sec-Fetch-Site: same-origin`, or else an
 * `Origin` equal to the public URL's origin. Neither header (or another origin) is refused.
 */
export function cookieRequestAllowed(method: string, headers: IncomingHttpHeaders, publicUrl: string): boolean {
  if (!STATE_CHANGING.has(method.toUpperCase())) return true;
  const site = headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin';
  return headers.origin === new URL(publicUrl).origin;
}

export const CSRF_REFUSAL = 'A request authenticated by the session cookie that changes something must come from this origin (Origin or Sec-Fetch-Site).';
