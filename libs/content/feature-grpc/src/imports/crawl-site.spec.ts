import * as nodeHttp from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSafeFetch, type HopSender, type Resolver, sendPinned } from '@bindery/platform/outbound-http';
import { crawlSite } from './crawl-site';
import { planTree } from './page-tree';

const LIMITS = { maxPages: 100, maxDepth: 10, maxBytes: 10_000_000, fetchTimeoutMs: 5000 };
const page = (title: string, body = '') =>
  `<html><head><title>${title}</title></head><body><nav><a href="/docs/nav-only">n</a></nav><main><h1>${title}</h1>${body}</main></body></html>`;

// A "public" site cannot be a real server here (it would need a public address): its hops are faked
// and DNS is injected; every other hop goes to the real sender, so a hop that slipped through would
// reach the loopback canary.
describe('crawlSite through the outbound guard', () => {
  let canary: nodeHttp.Server;
  let canaryPort: number;
  const reached: string[] = [];
  const dns: Record<string, string> = { 'public.example': '93.184.216.34', 'rebound.example': '127.0.0.1' };
  const resolve: Resolver = async (host) => {
    if (!dns[host]) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return [{ address: dns[host], family: 4 }];
  };
  let pages: Record<string, { status?: number; html?: string; location?: string; type?: string }>;
  const publicHops: string[] = [];
  const send: HopSender = async (hop) => {
    if (hop.url.hostname !== 'public.example') return sendPinned(hop);
    publicHops.push(hop.url.pathname);
    const p = pages[hop.url.pathname];
    if (!p) return new Response('missing', { status: 404, headers: { 'content-type': 'text/html' } });
    if (p.location) return new Response(null, { status: 302, headers: { location: p.location } });
    return new Response(p.html ?? '', { status: p.status ?? 200, headers: { 'content-type': p.type ?? 'text/html; charset=utf-8' } });
  };
  const guarded = createSafeFetch(send);
  const fetch: typeof guarded = (url, init) => guarded(url, { ...init, resolve });

  beforeAll(async () => {
    canary = nodeHttp.createServer((req, res) => (reached.push(req.url ?? ''), res.end('<html><body>canary</body></html>')));
    await new Promise<void>((r) => canary.listen(0, '127.0.0.1', r));
    canaryPort = (canary.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => canary.close(() => r())));
  beforeEach(() => {
    reached.length = 0;
    publicHops.length = 0;
  });

  it('follows links within host and prefix, honours robots.txt and the depth cap; redirects and names towards loopback are refused', async () => {
    pages = {
      '/robots.txt': { html: 'User-agent: *\nDisallow: /docs/secret', type: 'text/plain' },
      '/docs/': {
        html: page(
          'Home',
          [
            '<a href="/docs/a">a</a>',
            '<a href="/docs/b/">b</a>',
            '<a href="/docs/secret">secret</a>',
            '<a href="/elsewhere">outside</a>',
            '<a href="/docs/to-loopback">redirect</a>',
            `<a href="http://127.0.0.1:${canaryPort}/docs/x">loopback</a>`,
            `<a href="http://rebound.example:${canaryPort}/docs/">rebound</a>`,
          ].join(' '),
        ),
      },
      '/docs/a': { html: page('A', '<a href="/docs/a/deep">deep</a>') },
      '/docs/a/deep': { html: page('Deep', '<a href="/docs/a/deep/deeper">deeper</a>') },
      '/docs/a/deep/deeper': { html: page('Deeper') },
      '/docs/b/': { html: page('B') },
      '/docs/nav-only': { html: page('Nav only') },
      '/docs/to-loopback': { location: `http://127.0.0.1:${canaryPort}/docs/` },
      '/docs/secret': { html: page('Secret') },
      '/elsewhere': { html: page('Elsewhere') },
    };
    const result = await crawlSite(new URL('http://public.example/docs/'), { limits: { ...LIMITS, maxDepth: 2 }, allowPrivate: false, fetch });
    expect(result.pages.map((p) => p.parsed.title)).toEqual(['Home', 'Nav only', 'A', 'B', 'Deep']);
    expect(publicHops).not.toContain('/docs/secret');
    expect(publicHops).not.toContain('/elsewhere');
    expect(publicHops).not.toContain('/docs/a/deep/deeper');
    expect(publicHops).toContain('/docs/to-loopback');
    expect(reached).toEqual([]);
    const { planned } = planTree(result.pages, '/docs/');
    expect(planned.map((p) => [p.page.parsed.title, p.parent?.page.parsed.title ?? null])).toEqual([
      ['Home', null],
      ['Nav only', null],
      ['A', null],
      ['B', null],
      ['Deep', 'A'],
    ]);
  });

  it('a start URL that redirects to loopback, or whose name resolves to loopback, is refused with a 400 and nothing reaches the canary', async () => {
    pages = { '/robots.txt': { status: 404 }, '/docs/': { location: `http://127.0.0.1:${canaryPort}/docs/` } };
    await expect(crawlSite(new URL('http://public.example/docs/'), { limits: LIMITS, allowPrivate: false, fetch })).rejects.toMatchObject({
      kind: 'invalid',
      message: expect.stringContaining('host "127.0.0.1"'),
    });
    await expect(crawlSite(new URL(`http://rebound.example:${canaryPort}/docs/`), { limits: LIMITS, allowPrivate: false, fetch })).rejects.toMatchObject({ kind: 'invalid' });
    pages = { '/robots.txt': { location: `http://[::ffff:127.0.0.1]:${canaryPort}/robots.txt` }, '/docs/': { html: page('Home') } };
    await expect(crawlSite(new URL('http://public.example/docs/'), { limits: LIMITS, allowPrivate: false, fetch })).rejects.toMatchObject({ kind: 'invalid' });
    expect(reached).toEqual([]);
  });

  it('stops at the page cap and the byte cap', async () => {
    pages = { '/docs/': { html: page('Home', Array.from({ length: 20 }, (_, i) => `<a href="/docs/p${i}">p${i}</a>`).join(' ')) } };
    for (let i = 0; i < 20; i += 1) pages[`/docs/p${i}`] = { html: page(`P${i}`, 'x'.repeat(1000)) };
    const capped = await crawlSite(new URL('http://public.example/docs/'), { limits: { ...LIMITS, maxPages: 5 }, allowPrivate: false, fetch });
    expect(capped.pages).toHaveLength(5);
    // 22 found (home, 20 pages, the navigation's link): 5 imported
    expect(capped.skipped).toBe(17);
    const bytes = await crawlSite(new URL('http://public.example/docs/'), { limits: { ...LIMITS, maxBytes: 4000 }, allowPrivate: false, fetch });
    expect(bytes.pages.length).toBeLessThan(5);
    expect(bytes.bytes).toBeLessThanOrEqual(4000 + 1200);
  });
});
