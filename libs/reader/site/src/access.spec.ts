import { serveSampleReader, ServedReader } from './testing/serve';

/**
 * The access matrix, against the sample sites: visibility × what the visitor brings × what is asked.
 * The reader passes the visitor's key and token to the source, which decides (the sites resolver in
 * production); whatever is refused answers exactly like a page that does not exist.
 */
let r: ServedReader;
beforeAll(async () => {
  r = await serveSampleReader();
});
afterAll(() => r.close());

const CREDENTIALS = {
  none: {},
  'good key': { Cookie: 'bindery_share=bshare-good-key' },
  'deactivated key': { Cookie: 'bindery_share=bshare-deactivated' },
  'JWT with the claim': { Cookie: 'bindery_visitor=jwt-pro' },
  'JWT without the claim': { Cookie: 'bindery_visitor=jwt-basic' },
} as const;
type Credential = keyof typeof CREDENTIALS;

const ASKS = {
  html: (site: string, page: string) => `/${site}/${page}`,
  md: (site: string, page: string) => `/${site}/${page}.md`,
  'llms.txt': (site: string) => `/${site}/llms.txt`,
  sitemap: (site: string) => `/${site}/sitemap.xml`,
  search: (site: string) => `/${site}/~search.json?q=about`,
} as const;
type Ask = keyof typeof ASKS;

// [site (visibility), page, credential, expected status for html, md, llms.txt, sitemap, search]
const MATRIX: Array<[string, string, Credential, [number, number, number, number, number]]> = [
  ['acme (public)', 'install', 'none', [200, 200, 200, 200, 200]],
  ['acme (public)', 'install', 'good key', [200, 200, 200, 200, 200]],
  ['acme (public)', 'install', 'deactivated key', [200, 200, 200, 200, 200]],
  ['acme (public)', 'install', 'JWT with the claim', [200, 200, 200, 200, 200]],
  ['unlisted (unlisted)', 'home', 'none', [200, 200, 200, 200, 200]],
  ['unlisted (unlisted)', 'home', 'good key', [200, 200, 200, 200, 200]],
  ['team (share-link)', 'handbook', 'none', [404, 404, 404, 404, 404]],
  ['team (share-link)', 'handbook', 'good key', [200, 200, 200, 200, 200]],
  ['team (share-link)', 'handbook', 'deactivated key', [404, 404, 404, 404, 404]],
  ['team (share-link)', 'handbook', 'JWT with the claim', [404, 404, 404, 404, 404]],
  ['members (visitor-auth)', 'area', 'none', [404, 404, 404, 404, 404]],
  ['members (visitor-auth)', 'area', 'good key', [404, 404, 404, 404, 404]],
  ['members (visitor-auth)', 'area', 'JWT with the claim', [200, 200, 200, 200, 200]],
  ['members (visitor-auth)', 'area', 'JWT without the claim', [200, 200, 200, 200, 200]],
  // The site space "pro" has the condition `pro`: without the claim it does not exist.
  ['members (visitor-auth)', 'pro/tips', 'JWT with the claim', [200, 200, 200, 200, 200]],
  ['members (visitor-auth)', 'pro/tips', 'JWT without the claim', [404, 404, 200, 200, 200]],
  ['draft (unpublished)', 'draft', 'none', [404, 404, 404, 404, 404]],
];

describe('access matrix', () => {
  test.each(MATRIX)('%s, %s, %s', async (site, page, credential, expected) => {
    const basename = `acme-inc/${site.split(' ')[0]}`;
    const statuses = [];
    for (const ask of Object.keys(ASKS) as Ask[]) {
      const res = await fetch(`${r.url}${ASKS[ask](basename, page)}`, { headers: CREDENTIALS[credential], redirect: 'manual' });
      statuses.push(res.status);
      const body = await res.text();
      if (res.status === 404) expect(body).not.toMatch(/team handbook|pro tips/i);
    }
    expect(statuses).toEqual(expected);
  });

  test('nothing private leaks: listings and search of a visitor without the claim leave the gated space out', async () => {
    const basic = { Cookie: 'bindery_visitor=jwt-basic' };
    const pro = { Cookie: 'bindery_visitor=jwt-pro' };
    const llms = async (h: Record<string, string>) => (await fetch(`${r.url}/acme-inc/members/llms.txt`, { headers: h })).text();
    expect(await llms(pro)).toContain('Pro tips');
    expect(await llms(basic)).not.toContain('Pro tips');
    const search = async (h: Record<string, string>) => (await (await fetch(`${r.url}/acme-inc/members/~search.json?q=tips`, { headers: h })).json()) as { results: unknown[] };
    expect((await search(pro)).results).toHaveLength(1);
    expect((await search(basic)).results).toEqual([]);
    // The cache keeps the audiences apart: the pro page served first is not served to the other.
    expect((await fetch(`${r.url}/acme-inc/members/pro/tips`, { headers: pro })).status).toBe(200);
    expect((await fetch(`${r.url}/acme-inc/members/pro/tips`, { headers: basic })).status).toBe(404);
    expect((await fetch(`${r.url}/acme-inc/members/pro/tips`)).status).toBe(404);
  });

  test('unlisted and private sites say noindex everywhere; their sitemaps list nothing', async () => {
    for (const [path, headers] of [
      ['/acme-inc/unlisted/home', {}],
      ['/acme-inc/team/handbook', CREDENTIALS['good key']],
      ['/acme-inc/members/area', CREDENTIALS['JWT with the claim']],
    ] as const) {
      const res = await fetch(`${r.url}${path}`, { headers });
      expect([path, res.headers.get('x-robots-tag')]).toEqual([path, 'noindex']);
      expect(res.headers.get('cache-control')).toBe('private, no-cache');
      expect(await res.text()).toContain('<meta name="robots" content="noindex">');
    }
    expect(await (await fetch(`${r.url}/acme-inc/unlisted/robots.txt`)).text()).toBe('User-agent: *\nDisallow: /\n');
    expect(await (await fetch(`${r.url}/acme-inc/unlisted/sitemap.xml`)).text()).not.toContain('<url>');
    expect((await fetch(`${r.url}/acme-inc/acme/install`)).headers.get('cache-control')).toBe('public, no-cache');
  });

  test('a share link’s key moves from the URL into a cookie scoped to the site, then out of the URL', async () => {
    const res = await fetch(`${r.url}/acme-inc/team/~share/bshare-good-key/handbook`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/acme-inc/team/handbook');
    expect(res.headers.get('set-cookie')).toBe('bindery_share=bshare-good-key; Path=/acme-inc/team/; HttpOnly; SameSite=Lax');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const page = await fetch(`${r.url}/acme-inc/team/handbook`, { headers: { Cookie: 'bindery_share=bshare-good-key' } });
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).not.toContain('bshare-good-key');
  });

  test('the redirect after taking a key never leaves the host', async () => {
    const res = await fetch(`${r.url}/~share/bshare-good-key//evil.example/x`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/evil.example/x');
  });

  test('a visitor token moves from ?jwt_token= into a cookie scoped to the site', async () => {
    const res = await fetch(`${r.url}/acme-inc/members/area?jwt_token=jwt-pro`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/acme-inc/members/area');
    expect(res.headers.get('set-cookie')).toBe('bindery_visitor=jwt-pro; Path=/acme-inc/members/; HttpOnly; SameSite=Lax');
  });
});
