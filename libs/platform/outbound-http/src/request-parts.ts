import { OutboundSchemeRefusedError } from './outbound-errors';

export interface RequestParts {
  method: string;
  headers: Headers;
  body: Uint8Array | null;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const BODY_HEADERS = ['content-encoding', 'content-language', 'content-location', 'content-type', 'content-length'];
// Same list undici drops: these authorise the caller at the original origin only.
const ORIGIN_BOUND_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'host'];

/**
 * Parses a caller URL. `new URL` errors carry the input in `err.input`, which
 * may hold credentials, so the original error is not rethrown.
 */
export function parseUrl(input: string | URL, base?: URL): URL {
  try {
    return new URL(String(input), base);
  } catch {
    throw new TypeError('Invalid URL for outbound request');
  }
}

export function assertHttpScheme(url: URL): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundSchemeRefusedError(url.protocol.replace(/:$/, ''));
  }
}

/** Removes userinfo from `url`, returning it as a Basic credential (or undefined). */
export function takeCredentials(url: URL): string | undefined {
  if (url.username === '' && url.password === '') return undefined;
  const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  url.username = '';
  url.password = '';
  return `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
}

/**
 * Turns fetch-style init into bytes and headers. The WHATWG Request does the
 * work so every BodyInit form gets fetch's exact encoding and default
 * Content-Type; a placeholder URL keeps the real one, and any credentials in
 * it, out of Request's validation errors.
 */
export async function requestParts(init: RequestInit): Promise<RequestParts> {
  const request = new Request('http://placeholder.invalid/', {
    method: init.method,
    headers: init.headers,
    body: init.body,
    duplex: init.duplex,
  });
  const body = request.body ? new Uint8Array(await request.arrayBuffer()) : null;
  return { method: request.method, headers: new Headers(request.headers), body };
}

/** The Location a response redirects to, or undefined when it is not a followable redirect. */
export function redirectLocation(response: Response): string | undefined {
  if (!REDIRECT_STATUSES.has(response.status)) return undefined;
  return response.headers.get('location') ?? undefined;
}

/** Applies fetch's method/body rewriting and header stripping for one redirect. */
export function partsAfterRedirect(status: number, parts: RequestParts, from: URL, to: URL): RequestParts {
  const headers = new Headers(parts.headers);
  let { method, body } = parts;
  const becomesGet = ((status === 301 || status === 302) && method === 'POST') || (status === 303 && method !== 'GET' && method !== 'HEAD');
  if (becomesGet) {
    method = 'GET';
    body = null;
    for (const name of BODY_HEADERS) headers.delete(name);
  }
  if (from.origin !== to.origin) {
    for (const name of ORIGIN_BOUND_HEADERS) headers.delete(name);
  }
  return { method, headers, body };
}
