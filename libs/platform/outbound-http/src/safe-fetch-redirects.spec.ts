import { type LoopbackServer, startLoopbackServer } from './loopback-test-server';
import { OutboundAddressRefusedError, OutboundRedirectLimitError, OutboundSchemeRefusedError } from './outbound-errors';
import type { HopSender, PinnedHop } from './pinned-request';
import { createSafeFetch, safeFetch } from './safe-fetch';
import type { Resolver } from './vet-host';

// A "public" first hop cannot be a real server in a unit test (it would have to
// be on a public address), so the hop sender is faked and DNS is injected.
describe('redirect re-checking with a faked public first hop', () => {
  const dnsTable: Record<string, string> = {
    'public.example': '93.184.216.34',
    'other-public.example': '1.1.1.1',
    'internal.example': '10.0.0.5',
  };
  const resolve = jest.fn<ReturnType<Resolver>, Parameters<Resolver>>(async (host) => {
    const address = dnsTable[host];
    if (!address) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return [{ address, family: 4 }];
  });

  function redirectingSender(location: string, status = 302): { send: HopSender; hops: PinnedHop[] } {
    const hops: PinnedHop[] = [];
    const send: HopSender = async (hop) => {
      hops.push(hop);
      if (hops.length === 1) return new Response(null, { status, headers: { location } });
      return new Response('final', { status: 200 });
    };
    return { send, hops };
  }

  beforeEach(() => resolve.mockClear());

  it('refuses a redirect from a public host to http://127.0.0.1/', async () => {
    const { send, hops } = redirectingSender('http://127.0.0.1/admin');
    const attempt = createSafeFetch(send)('http://public.example/start', { resolve });
    await expect(attempt).rejects.toBeInstanceOf(OutboundAddressRefusedError);
    await expect(attempt).rejects.toMatchObject({ host: '127.0.0.1' });
    expect(hops).toHaveLength(1);
    expect(hops[0]?.addresses).toEqual([{ address: '93.184.216.34', family: 4 }]);
  });

  it.each(['http://internal.example/', 'http://[::ffff:7f00:1]/', 'http://2130706433/', 'http://169.254.169.254/latest/meta-data/'])(
    'refuses a redirect to %s',
    async (location) => {
      const { send, hops } = redirectingSender(location, 307);
      await expect(createSafeFetch(send)('http://public.example/', { resolve })).rejects.toThrow(OutboundAddressRefusedError);
      expect(hops).toHaveLength(1);
    },
  );

  it('refuses a redirect to a non-http scheme', async () => {
    const { send } = redirectingSender('file:///etc/passwd');
    await expect(createSafeFetch(send)('http://public.example/', { resolve })).rejects.toThrow(OutboundSchemeRefusedError);
  });

  it('follows a redirect to another public host, vetting it too', async () => {
    const { send, hops } = redirectingSender('http://other-public.example/next');
    const response = await createSafeFetch(send)('http://public.example/', { resolve });
    expect(await response.text()).toBe('final');
    expect(response.redirected).toBe(true);
    expect(response.url).toBe('http://other-public.example/next');
    expect(resolve.mock.calls.map(([host]) => host)).toEqual(['public.example', 'other-public.example']);
    expect(hops[1]?.addresses).toEqual([{ address: '1.1.1.1', family: 4 }]);
  });

  it('drops credentials on cross-origin redirects and rewrites POST to GET on 303', async () => {
    const { send, hops } = redirectingSender('http://other-public.example/done', 303);
    await createSafeFetch(send)('http://user:pw@public.example/', {
      resolve,
      method: 'POST',
      body: 'payload',
      headers: { cookie: 'sid=1', 'x-keep': 'yes' },
    });
    expect(hops[0]?.headers.get('authorization')).toMatch(/^Basic /);
    expect(hops[0]?.headers.get('cookie')).toBe('sid=1');
    const second = hops[1];
    expect(second?.method).toBe('GET');
    expect(second?.body).toBeNull();
    expect(second?.headers.get('authorization')).toBeNull();
    expect(second?.headers.get('cookie')).toBeNull();
    expect(second?.headers.get('content-type')).toBeNull();
    expect(second?.headers.get('x-keep')).toBe('yes');
  });

  it('keeps method and body on 307', async () => {
    const { send, hops } = redirectingSender('/again', 307);
    await createSafeFetch(send)('http://public.example/', { resolve, method: 'PUT', body: 'payload' });
    expect(hops[1]?.method).toBe('PUT');
    expect(Buffer.from(hops[1]?.body ?? []).toString()).toBe('payload');
    expect(hops[1]?.url.href).toBe('http://public.example/again');
  });
});

describe('redirects against a real loopback server (allowPrivate: true)', () => {
  let server: LoopbackServer;

  beforeEach(async () => {
    server = await startLoopbackServer((req, res) => {
      const { pathname, searchParams } = new URL(req.url, 'http://x');
      if (pathname === '/start') return void res.writeHead(302, { location: '/middle' }).end();
      if (pathname === '/middle') return void res.writeHead(307, { location: '/end' }).end('ignored');
      if (pathname === '/loop') {
        const n = Number(searchParams.get('n') ?? '0') + 1;
        return void res.writeHead(302, { location: `/loop?n=${n}` }).end();
      }
      res.end(`arrived at ${pathname}`);
    });
  });
  afterEach(() => server.close());

  it('follows a chain of redirects', async () => {
    const response = await safeFetch(`${server.origin}/start`, { allowPrivate: true });
    expect(await response.text()).toBe('arrived at /end');
    expect(response.url).toBe(`${server.origin}/end`);
    expect(response.redirected).toBe(true);
    expect(server.requests.map((r) => r.url)).toEqual(['/start', '/middle', '/end']);
  });

  it('stops after maxRedirects', async () => {
    const attempt = safeFetch(`${server.origin}/loop`, { allowPrivate: true, maxRedirects: 3 });
    await expect(attempt).rejects.toBeInstanceOf(OutboundRedirectLimitError);
    await expect(attempt).rejects.toMatchObject({ code: 'OUTBOUND_REDIRECT_LIMIT', maxRedirects: 3 });
    expect(server.requests).toHaveLength(4);
  });

  it('defaults to 5 redirects', async () => {
    await expect(safeFetch(`${server.origin}/loop`, { allowPrivate: true })).rejects.toThrow(OutboundRedirectLimitError);
    expect(server.requests).toHaveLength(6);
  });

  it('with maxRedirects 0 refuses the first redirect', async () => {
    await expect(safeFetch(`${server.origin}/start`, { allowPrivate: true, maxRedirects: 0 })).rejects.toThrow(OutboundRedirectLimitError);
    expect(server.requests).toHaveLength(1);
  });

  it('returns the redirect itself with redirect: "manual"', async () => {
    const response = await safeFetch(`${server.origin}/start`, { allowPrivate: true, redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/middle');
    expect(server.requests).toHaveLength(1);
  });

  it('rejects invalid maxRedirects values', async () => {
    await expect(safeFetch(`${server.origin}/start`, { allowPrivate: true, maxRedirects: -1 })).rejects.toThrow(RangeError);
  });
});
