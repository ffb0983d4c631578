import { serveSampleReader, ServedReader } from './testing/serve';

let r: ServedReader;
// A resolution is reused for a minute here, so a repeat request provably costs no call.
beforeAll(async () => {
  r = await serveSampleReader({ cache: { resolveTtlMs: 60_000 } });
});
afterAll(() => r.close());

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${r.url}${path}`, { redirect: 'manual', headers });
const text = async (path: string, headers: Record<string, string> = {}) => {
  const res = await get(path, headers);
  return { status: res.status, headers: res.headers, body: await res.text() };
};

describe('URLs', () => {
  test('the site root shows the default section and variant’s first page', async () => {
    for (const path of ['/acme-inc/acme', '/acme-inc/acme/']) {
      const res = await text(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.body).toContain('<h1><span class="emoji" aria-hidden="true">👋</span> Welcome</h1>');
    }
  });

  test('a page path, a section path and a variant path', async () => {
    expect((await text('/acme-inc/acme/install')).body).toContain('<h1>Install</h1>');
    expect((await text('/acme-inc/acme/install/docker')).body).toContain('<h1>With Docker</h1>');
    expect((await text('/acme-inc/acme/api/')).body).toContain('<h1>API overview</h1>');
    expect((await text('/acme-inc/acme/api/authentication')).body).toContain('<h1>Authentication</h1>');
    expect((await text('/acme-inc/acme/v1/install')).body).toContain('<h1>Install (v1)</h1>');
    expect((await text('/acme-inc/acme/blog/')).body).toContain('<h1>Hello world</h1>');
  });

  test('a group goes to its first page; a link page to its target; a site redirect is followed', async () => {
    expect((await get('/acme-inc/acme/getting-started')).headers.get('location')).toBe('/acme-inc/acme/install');
    expect((await get('/acme-inc/acme/old-install')).headers.get('location')).toBe('/acme-inc/acme/install');
  });

  test('a page that does not exist is a real 404, inside the site and outside any', async () => {
    const inSite = await text('/acme-inc/acme/no-such-page');
    expect(inSite.status).toBe(404);
    expect(inSite.body).toContain('<h1>Page not found</h1>');
    expect(inSite.body).toContain('aria-label="Pages"');
    for (const path of ['/no-such-site/', '/', '/acme-inc/draft/', '/acme-inc/draft/draft']) {
      const res = await text(path);
      expect([path, res.status]).toEqual([path, 404]);
      expect(res.body).toContain('Nothing is published at this address.');
    }
  });

  test('the variant switcher keeps the page where it exists, else goes to the variant’s first page', async () => {
    const page = (await text('/acme-inc/acme/install')).body;
    expect(page).toContain('<a href="/acme-inc/acme/v1/install?fallback=root">v1</a>');
    expect((await get('/acme-inc/acme/v1/install?fallback=root')).status).toBe(200);
    const missing = await get('/acme-inc/acme/v1/rich?fallback=root');
    expect([missing.status, missing.headers.get('location')]).toEqual([302, '/acme-inc/acme/v1/']);
  });

  test('methods other than GET and HEAD are refused; HEAD has no body', async () => {
    expect((await fetch(`${r.url}/acme-inc/acme/`, { method: 'POST' })).status).toBe(405);
    const head = await fetch(`${r.url}/acme-inc/acme/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(1000);
    expect(await head.text()).toBe('');
  });
});

describe('the page', () => {
  test('navigation: hidden pages left out of the tree but served; breadcrumbs; previous and next; table of contents', async () => {
    const { body } = await text('/acme-inc/acme/install/docker');
    const sidebar = body.slice(body.indexOf('aria-label="Pages"'), body.indexOf('</nav>', body.indexOf('aria-label="Pages"')));
    expect(sidebar).toContain('<a href="/acme-inc/acme/install">Install</a>');
    expect(sidebar).toContain('<a href="/acme-inc/acme/install/docker" aria-current="page">With Docker</a>');
    expect(sidebar).toContain('<span class="nav-group-title">Getting started</span>');
    expect(sidebar).toContain('<a href="https://github.com/example/acme">GitHub</a>');
    expect(sidebar).not.toContain('Secret page');
    expect(body).toContain(
      '<nav class="breadcrumbs" aria-label="Breadcrumb"><ol><li><a href="/acme-inc/acme/">Guides</a></li><li>Getting started</li><li><a href="/acme-inc/acme/install">Install</a></li></ol></nav>',
    );
    expect(body).toContain('<a rel="prev" href="/acme-inc/acme/install"><span class="label">Previous</span>Install</a>');
    expect(body).toContain('<a rel="next" href="/acme-inc/acme/configure"><span class="label">Next</span>Configure</a>');
    const secret = await text('/acme-inc/acme/secret');
    expect(secret.status).toBe(200);
    expect(secret.body).toContain('<h1>Secret page</h1>');
    const install = (await text('/acme-inc/acme/install')).body;
    expect(install).toContain(
      '<nav class="toc" aria-labelledby="toc-title"><h2 id="toc-title">On this page</h2><ul><li class="level-1"><a href="#requirements">Requirements</a></li><li class="level-1"><a href="#steps">Steps</a></li></ul></nav>',
    );
  });

  test('section tabs, a section group, and a section whose condition fails is absent', async () => {
    const { body } = await text('/acme-inc/acme/api/');
    expect(body).toContain(
      '<nav class="sections" aria-label="Sections"><ul><li><a href="/acme-inc/acme/">Guides</a></li><li><a href="/acme-inc/acme/api/" aria-current="true">API</a></li>',
    );
    expect(body).toContain('<li class="section-group"><details><summary>More</summary><ul><li><a href="/acme-inc/acme/blog/">Blog</a></li></ul></details></li>');
    expect(body).not.toContain('Enterprise');
    expect((await get('/acme-inc/acme/enterprise/')).status).toBe(404);
  });

  test('title, description, canonical link, OpenGraph, Markdown alternate; landmarks and skip link', async () => {
    const { body, headers } = await text('/acme-inc/acme/install');
    expect(body).toContain('<title>Install | Acme Docs</title>');
    expect(body).toContain('<meta name="description" content="Install Acme.">');
    expect(body).toContain(`<link rel="canonical" href="${r.url}/acme-inc/acme/install">`);
    expect(body).toContain('<meta property="og:title" content="Install">');
    expect(body).toContain(`<meta property="og:url" content="${r.url}/acme-inc/acme/install">`);
    expect(body).toContain('<link rel="alternate" type="text/markdown" href="/acme-inc/acme/install.md">');
    expect(body).toContain('<a class="skip-link" href="#content">Skip to content</a>');
    expect(body).toContain('<main id="content" tabindex="-1">');
    expect(body).toContain('<form class="search-form" role="search" action="/acme-inc/acme/~search" method="get">');
    expect(body).not.toContain('name="robots"');
    expect(headers.get('content-security-policy')).toContain("script-src 'self' 'sha256-");
    expect(headers.get('x-robots-tag')).toBeNull();
  });

  test('the canonical link of the first page is the space root; noIndex pages say noindex to robots', async () => {
    expect((await text('/acme-inc/acme/welcome')).body).toContain(`<link rel="canonical" href="${r.url}/acme-inc/acme/">`);
    expect((await text('/acme-inc/acme/internal/more')).body).toContain('<meta name="robots" content="noindex">');
  });

  test('the rich page renders every block', async () => {
    const { body, status } = await text('/acme-inc/acme/rich');
    expect(status).toBe(200);
    for (const fragment of [
      'class="hint hint-info"',
      'class="hint hint-danger"',
      '<figcaption class="code-title">server.js</figcaption>',
      'class="hljs language-javascript"',
      'role="tablist"',
      '<details class="expandable">',
      '<ol class="stepper">',
      '<div class="columns">',
      '<table>',
      '<ul class="cards cards-medium"',
      'class="math math-block"',
      'class="math math-inline"',
      '<img src="/acme-inc/acme/~files/f-logo/logo.png" alt="The Acme logo" width="240" height="120"',
      'href="/acme-inc/acme/~files/f-pdf/guide.pdf" download="guide.pdf"',
      '<div class="embed">',
      '<a class="content-ref" href="/acme-inc/acme/configure">',
      '<div class="reusable-content"><div class="hint hint-success"',
      'class="annotation"',
      '<a href="/acme-inc/acme/install" class="mention">Install</a>',
      'data-block="openapi-operation"',
      'data-block="integration"',
      '<article class="update">',
      '<ul class="task-list">',
      '<blockquote>',
      '<hr>',
      `<link rel="stylesheet" href="/~reader/katex/katex.min.css">`,
    ])
      expect(body).toContain(fragment);
    expect(body).not.toContain('Only pro readers see this.');
  });
});

describe('Markdown and listings for agents', () => {
  test('<page>.md and Accept: text/markdown give the page in GitBook Markdown with absolute links', async () => {
    const md = await text('/acme-inc/acme/install.md');
    expect(md.status).toBe(200);
    expect(md.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(md.body).toBe(
      `---\ndescription: Install Acme.\n---\n\n# Install\n\n## Requirements\n\nNode.js 22 or newer.\n\n## Steps\n\n\`\`\`bash\nnpm install acme\n\`\`\`\n\nThen [configure](${r.url}/acme-inc/acme/configure) it, or run it [with Docker](${r.url}/acme-inc/acme/install/docker).\n`,
    );
    const negotiated = await text('/acme-inc/acme/install', { Accept: 'text/markdown' });
    expect(negotiated.body).toBe(md.body);
    expect(negotiated.headers.get('vary')).toContain('Accept');
    // RFC 9110 negotiation: Markdown only when named, at a weight at least that of HTML; HTML stays the default
    const accepts: Array<[string | undefined, string]> = [
      [undefined, 'text/html'],
      ['*/*', 'text/html'],
      ['text/html', 'text/html'],
      ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'text/html'],
      ['text/markdown, text/html', 'text/markdown'],
      ['text/markdown;q=0.9, text/html', 'text/html'],
      ['text/markdown;q=0.5, */*', 'text/html'],
      ['text/markdown, */*;q=0.1', 'text/markdown'],
      ['text/html;q=0.5, text/markdown;q=0.5', 'text/markdown'],
    ];
    for (const [accept, type] of accepts) {
      const res = await text('/acme-inc/acme/install', accept ? { Accept: accept } : {});
      expect([accept, res.status, res.headers.get('content-type')?.split(';')[0], res.headers.get('vary')]).toEqual([accept, 200, type, 'Accept, Cookie']);
    }
    expect((await text('/acme-inc/acme/welcome.md')).body).toContain('# Welcome');
    expect((await get('/acme-inc/acme/nope.md')).status).toBe(404);
  });

  test('llms.txt lists every section and variant, without hidden or noIndex pages', async () => {
    const llms = await text('/acme-inc/acme/llms.txt');
    expect(llms.status).toBe(200);
    expect(llms.body).toBe(
      [
        '# Acme Docs',
        '',
        '> Documentation of Acme.',
        '',
        '## Guides › v2',
        '',
        `- [Welcome](${r.url}/acme-inc/acme/welcome.md): Acme helps you publish documentation.`,
        `- [Install](${r.url}/acme-inc/acme/install.md): Install Acme.`,
        `- [With Docker](${r.url}/acme-inc/acme/install/docker.md)`,
        `- [Configure](${r.url}/acme-inc/acme/configure.md)`,
        `- [Every block](${r.url}/acme-inc/acme/rich.md): A page with every kind of block.`,
        `- [A wide page](${r.url}/acme-inc/acme/wide.md): Shown only in the head.`,
        '',
        '## Guides › v1',
        '',
        `- [Welcome (v1)](${r.url}/acme-inc/acme/v1/welcome.md)`,
        `- [Install (v1)](${r.url}/acme-inc/acme/v1/install.md)`,
        '',
        '## API',
        '',
        `- [API overview](${r.url}/acme-inc/acme/api/overview.md)`,
        `- [Authentication](${r.url}/acme-inc/acme/api/authentication.md)`,
        '',
        '## Blog',
        '',
        `- [Hello world](${r.url}/acme-inc/acme/blog/hello.md)`,
        '',
      ].join('\n'),
    );
    // Listings belong to the site root only.
    expect((await get('/acme-inc/acme/api/llms.txt')).status).toBe(404);
  });

  test('llms-full.txt: every listed page in reading order, headed with its title and URL', async () => {
    const full = await text('/acme-inc/acme/llms-full.txt');
    expect(full.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(full.body.startsWith('# Acme Docs\n\n> Documentation of Acme.\n\n---\ntitle: "Welcome"\n')).toBe(true);
    expect(full.body).toContain(
      `---\ntitle: "Install"\nurl: ${r.url}/acme-inc/acme/install\nsection: "Guides › v2"\ndescription: Install Acme.\n---\n\n# Install\n\n## Requirements`,
    );
    // the page tree's order, section by section and variant by variant: the order of llms.txt
    const urls = [...full.body.matchAll(/^url: (.+)$/gm)].map((m) => m[1].replace(r.url, ''));
    expect(urls).toEqual([
      '/acme-inc/acme/',
      '/acme-inc/acme/install',
      '/acme-inc/acme/install/docker',
      '/acme-inc/acme/configure',
      '/acme-inc/acme/rich',
      '/acme-inc/acme/wide',
      '/acme-inc/acme/v1/',
      '/acme-inc/acme/v1/install',
      '/acme-inc/acme/api/',
      '/acme-inc/acme/api/authentication',
      '/acme-inc/acme/blog/',
    ]);
    const llms = (await text('/acme-inc/acme/llms.txt')).body;
    expect([...llms.matchAll(/\]\(([^)]+)\.md\)/g)].map((m) => m[1].replace(r.url, ''))).toEqual(urls.map((u) => (u.endsWith('/') ? expect.stringMatching(`^${u}`) : u)));
    expect(full.body).not.toContain('Internal notes');
    expect(full.body).not.toContain('Secret page');
    expect(full.body).not.toContain('Left out');
    expect((await get('/acme-inc/acme/api/llms-full.txt')).status).toBe(404);
  });

  test('llms-full.txt is bounded: the pages past the bound are left out and a closing note says which', async () => {
    const small = await serveSampleReader({ reader: { llmsFullMaxBytes: 4000 } });
    try {
      const res = await fetch(`${small.url}/acme-inc/acme/llms-full.txt`);
      const body = await res.text();
      expect(Buffer.byteLength(body)).toBeLessThanOrEqual(4000);
      expect([...body.matchAll(/^url: (.+)$/gm)].map((m) => m[1].replace(small.url, ''))).toEqual([
        '/acme-inc/acme/',
        '/acme-inc/acme/install',
        '/acme-inc/acme/install/docker',
        '/acme-inc/acme/configure',
      ]);
      expect(
        body.endsWith(
          `---\n\nLeft out: 7 of 11 pages, from "Every block" (${small.url}/acme-inc/acme/rich) on: this file is limited to 4000 bytes. ${small.url}/acme-inc/acme/llms.txt lists every page's Markdown URL.\n`,
        ),
      ).toBe(true);
    } finally {
      await small.close();
    }
  });

  test('sitemap.xml covers every section and variant, honouring noIndex; robots.txt names it', async () => {
    const sitemap = await text('/acme-inc/acme/sitemap.xml');
    expect(sitemap.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    const locs = [...sitemap.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1].replace(r.url, ''));
    expect(locs).toEqual([
      '/acme-inc/acme/',
      '/acme-inc/acme/install',
      '/acme-inc/acme/install/docker',
      '/acme-inc/acme/configure',
      '/acme-inc/acme/rich',
      '/acme-inc/acme/wide',
      '/acme-inc/acme/v1/',
      '/acme-inc/acme/v1/install',
      '/acme-inc/acme/api/',
      '/acme-inc/acme/api/authentication',
      '/acme-inc/acme/blog/',
    ]);
    expect((await text('/acme-inc/acme/robots.txt')).body).toBe(`User-agent: *\nAllow: /\n\nSitemap: ${r.url}/acme-inc/acme/sitemap.xml\n`);
  });
});

describe('search', () => {
  test('the JSON endpoint and the page find published pages, never noIndex or hidden ones', async () => {
    const json = await text('/acme-inc/acme/~search.json?q=docker');
    expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(JSON.parse(json.body).results.map((h: { url: string }) => h.url.replace(r.url, ''))).toEqual(['/acme-inc/acme/install', '/acme-inc/acme/install/docker']);
    expect(JSON.parse((await text('/acme-inc/acme/~search.json?q=internal')).body).results).toEqual([]);
    const page = await text('/acme-inc/acme/~search?q=docker');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<p role="status">2 results</p>');
    expect(page.body).toContain('<a href="/acme-inc/acme/install/docker">With Docker</a>');
  });
});

describe('files', () => {
  test('a file of the revision is served under its site space; a wrong name or id is a 404', async () => {
    const res = await get('/acme-inc/acme/~files/f-logo/logo.png');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="logo.png"; filename*=UTF-8''logo.png`);
    expect(
      Buffer.from(await res.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    expect((await get('/acme-inc/acme/~files/f-logo/other.png')).status).toBe(404);
    expect((await get('/acme-inc/acme/~files/f-none/logo.png')).status).toBe(404);
    expect((await get('/acme-inc/acme/api/~files/f-logo/logo.png')).status).toBe(404);
  });

  test('the reader’s own stylesheet, script and KaTeX are served, cached for a year', async () => {
    const html = (await text('/acme-inc/acme/rich')).body;
    const css = /href="(\/~reader\/reader\.[^"]+\.css)"/.exec(html)![1];
    const js = /src="(\/~reader\/reader\.[^"]+\.js)"/.exec(html)![1];
    for (const path of [css, js, '/~reader/katex/katex.min.css']) {
      const res = await get(path);
      expect([path, res.status, res.headers.get('cache-control')]).toEqual([path, 200, 'public, max-age=31536000, immutable']);
    }
    expect((await get('/~reader/katex/../package.json')).status).toBe(404);
  });
});

describe('cache', () => {
  test('a repeat request costs no call to the source; ETag and Last-Modified answer 304', async () => {
    const first = await get('/acme-inc/acme/configure');
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    const lastModified = first.headers.get('last-modified')!;
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    const calls = r.fixture.totalCalls();
    const again = await get('/acme-inc/acme/configure');
    expect(await again.text()).toBe(await first.text());
    expect(r.fixture.totalCalls()).toBe(calls);
    expect((await get('/acme-inc/acme/configure', { 'If-None-Match': etag })).status).toBe(304);
    expect((await get('/acme-inc/acme/configure', { 'If-Modified-Since': lastModified })).status).toBe(304);
    expect((await get('/acme-inc/acme/configure', { 'If-None-Match': '"other"' })).status).toBe(200);
    expect(r.fixture.totalCalls()).toBe(calls);
  });
});

describe('freshness', () => {
  test('a merge shows once the resolution expires (or at once when invalidated), with a new ETag', async () => {
    const fresh = await serveSampleReader({ cache: { resolveTtlMs: 100 } });
    try {
      const before = await fetch(`${fresh.url}/acme-inc/acme/blog/`);
      expect(await before.text()).toContain('About hello world.');
      const space = fresh.fixture.spaces.find((s) => s.id === 'space-blog')!;
      const merged = structuredClone(space);
      merged.revisionId = 'rev-space-blog-2';
      merged.documents['blog-hello'] = {
        object: 'document',
        data: {},
        nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Merged text.', marks: [] }] }] }],
      };
      fresh.fixture.publishRevision(merged);
      const t0 = Date.now();
      let body = '';
      while (Date.now() - t0 < 2000) {
        body = await (await fetch(`${fresh.url}/acme-inc/acme/blog/`)).text();
        if (body.includes('Merged text.')) break;
        await new Promise((res) => setTimeout(res, 20));
      }
      expect(body).toContain('Merged text.');
      expect(Date.now() - t0).toBeLessThan(1000);

      merged.revisionId = 'rev-space-blog-3';
      merged.documents['blog-hello'].nodes = [
        { object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Third.', marks: [] }] }] },
      ];
      fresh.fixture.publishRevision({ ...merged });
      fresh.cached.invalidateAll();
      expect(await (await fetch(`${fresh.url}/acme-inc/acme/blog/`)).text()).toContain('Third.');
    } finally {
      await fresh.close();
    }
  });
});
