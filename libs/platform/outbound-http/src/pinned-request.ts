// Why node:http(s) and not the global fetch: the address check is only worth
// something if the socket connects to the very address that was checked. With
// fetch, undici would resolve the name a second time when connecting, so a DNS
// server answering "public" to the check and "127.0.0.1" a moment later (DNS
// rebinding) would walk straight through. Pinning the connection under fetch
// needs an undici `Agent` as `dispatcher`, and Node 20 does not expose one
// without adding the undici package. http.request accepts a `lookup` function,
// so we hand it one that can only answer with the already vetted addresses.
// The result is still a standard `Response`, so callers keep the fetch API.
import * as http from 'node:http';
import * as https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { stripIpDecoration } from './address-policy';
import type { ResolvedAddress } from './vet-host';

/** One request/response exchange, with the addresses its connection may use. */
export interface PinnedHop {
  /** Target without userinfo; credentials travel in `headers` only. */
  readonly url: URL;
  readonly method: string;
  readonly headers: Headers;
  readonly body: Uint8Array | null;
  readonly addresses: readonly ResolvedAddress[];
  readonly signal: AbortSignal;
}

/** Performs one hop. Swappable so redirect handling can be tested without real public hosts. */
export type HopSender = (hop: PinnedHop) => Promise<Response>;

type ResponseBody = ConstructorParameters<typeof Response>[0];

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

function notFound(hostname: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`No vetted address for host "${hostname}"`), { code: 'ENOTFOUND' });
}

/** A `lookup` for http.request that answers only from `addresses` and never asks DNS again. */
export function pinnedLookup(hostname: string, addresses: readonly ResolvedAddress[]): LookupFunction {
  return (requested, options, callback) => {
    // Node only asks for the host we passed; any other name means a path we never vetted.
    if (requested !== hostname) return callback(notFound(requested), '');
    const wanted = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    const usable = wanted ? addresses.filter((a) => a.family === wanted) : addresses;
    const first = usable[0];
    if (!first) return callback(notFound(requested), '');
    // Node 20 connects with autoSelectFamily, which asks for every address at once.
    if (options.all)
      return callback(
        null,
        usable.map(({ address, family }) => ({ address, family })),
      );
    return callback(null, first.address, first.family);
  };
}

function toResponse(res: http.IncomingMessage, hop: PinnedHop): Response {
  const status = res.statusCode ?? 0;
  // Response cannot represent other codes; fetch treats them as network errors too.
  if (status < 200 || status > 599) {
    throw new TypeError(`Host "${hop.url.hostname}" answered with unsupported status ${status}`);
  }
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
    headers.append(res.rawHeaders[i] as string, res.rawHeaders[i + 1] as string);
  }
  const hasBody = hop.method !== 'HEAD' && !NULL_BODY_STATUSES.has(status);
  if (!hasBody) res.resume();
  const body = hasBody ? (Readable.toWeb(res) as unknown as ResponseBody) : null;
  return new Response(body, { status, statusText: res.statusMessage ?? '', headers });
}

export const sendPinned: HopSender = (hop) =>
  new Promise<Response>((resolve, reject) => {
    const { url } = hop;
    const hostname = stripIpDecoration(url.hostname);
    const headers: Record<string, string> = {};
    hop.headers.forEach((value, name) => {
      headers[name] = value;
    });
    if (hop.body) headers['content-length'] = String(hop.body.byteLength);
    else if (hop.method !== 'GET' && hop.method !== 'HEAD') headers['content-length'] = '0';

    const transport = url.protocol === 'https:' ? https : http;
    const req = transport.request(
      {
        protocol: url.protocol,
        hostname,
        port: url.port === '' ? undefined : Number(url.port),
        path: `${url.pathname}${url.search}`,
        method: hop.method,
        headers,
        lookup: pinnedLookup(hostname, hop.addresses),
        // Pooled sockets are keyed by host:port, not by the address they reached,
        // so a kept-alive socket opened by unvetted code could be reused. Fresh
        // connections keep the vetted address authoritative.
        agent: false,
        signal: hop.signal,
      },
      (res) => {
        try {
          resolve(toResponse(res, hop));
        } catch (err) {
          res.destroy();
          reject(err);
        }
      },
    );
    // Surface the abort reason (e.g. a TimeoutError) the way fetch does, not Node's generic AbortError.
    req.on('error', (err) => reject(hop.signal.aborted ? hop.signal.reason : err));
    req.end(hop.body ?? undefined);
  });
