import { OutboundRedirectLimitError } from './outbound-errors';
import { type HopSender, sendPinned } from './pinned-request';
import { assertHttpScheme, parseUrl, partsAfterRedirect, redirectLocation, requestParts, takeCredentials } from './request-parts';
import { type Resolver, systemResolver, vetHost } from './vet-host';

export const DEFAULT_MAX_REDIRECTS = 5;
export const DEFAULT_TIMEOUT_MS = 10_000;

export interface SafeFetchInit extends RequestInit {
  /** Lets loopback/private/link-local targets through; take it from `outboundPolicyFromEnv()`. */
  allowPrivate?: boolean;
  /** Redirects followed before giving up; each target is vetted like the first. Default 5. */
  maxRedirects?: number;
  /** Budget for the whole exchange, redirects and body included. Default 10 000 ms. */
  timeoutMs?: number;
  /** Name resolution; defaults to `dns.promises.lookup(host, { all: true })`. */
  resolve?: Resolver;
}

export type SafeFetch = (input: string | URL, init?: SafeFetchInit) => Promise<Response>;

function assertCount(name: string, value: number, min: number): void {
  if (!Number.isInteger(value) || value < min) throw new RangeError(`${name} must be an integer >= ${min}`);
}

// dns.lookup cannot be cancelled, but the caller should not wait for it past the deadline.
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function finish(response: Response, url: URL, redirected: boolean): Response {
  const visible = new URL(url);
  visible.hash = '';
  // Response offers no constructor option for these; fetch callers still expect them.
  Object.defineProperty(response, 'url', { value: visible.href });
  Object.defineProperty(response, 'redirected', { value: redirected });
  return response;
}

/**
 * Builds a `safeFetch` around a hop sender. Production code uses the exported
 * `safeFetch`; the sender parameter exists so redirect re-checking can be
 * exercised against a "public" first hop without touching the internet.
 */
export function createSafeFetch(send: HopSender = sendPinned): SafeFetch {
  return async function safeFetch(input, init = {}) {
    const {
      allowPrivate = false,
      maxRedirects = DEFAULT_MAX_REDIRECTS,
      timeoutMs = DEFAULT_TIMEOUT_MS,
      resolve = systemResolver,
      signal: callerSignal,
      redirect = 'follow',
      ...requestInit
    } = init;
    assertCount('maxRedirects', maxRedirects, 0);
    assertCount('timeoutMs', timeoutMs, 1);
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = callerSignal ? AbortSignal.any([callerSignal, deadline]) : deadline;

    let url = parseUrl(input);
    assertHttpScheme(url);
    const credentials = takeCredentials(url);
    let parts = await requestParts(requestInit);
    if (credentials && !parts.headers.has('authorization')) parts.headers.set('authorization', credentials);

    for (let hops = 0; ; hops += 1) {
      const addresses = await untilAborted(vetHost(url.hostname, { allowPrivate, resolve }), signal);
      const response = await send({ url, ...parts, addresses, signal });
      const location = redirectLocation(response);
      if (location === undefined || redirect === 'manual') return finish(response, url, hops > 0);

      await response.body?.cancel();
      if (redirect === 'error') {
        throw new TypeError(`Host "${url.hostname}" redirected while redirect mode is "error"`);
      }
      if (hops >= maxRedirects) throw new OutboundRedirectLimitError(url.hostname, maxRedirects);
      const next = parseUrl(location, url);
      assertHttpScheme(next);
      // Credentials in a Location header are the redirecting server's idea, not the caller's; drop them.
      takeCredentials(next);
      parts = partsAfterRedirect(response.status, parts, url, next);
      url = next;
    }
  };
}

/**
 * fetch for server-side requests to URLs that users or remote systems chose.
 * Refuses non-http(s) schemes and any host that is or resolves to a loopback,
 * private, link-local or otherwise non-public address (unless `allowPrivate`),
 * on the first request and on every redirect, and connects only to the
 * addresses it checked.
 */
export const safeFetch: SafeFetch = createSafeFetch();
