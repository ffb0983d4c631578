import { markdownToDocument } from '@bindery/shared/markdown';
import { markdownOf, parsePage } from './html-to-markdown';
import { planTree, segmentsOf } from './page-tree';

const HTML = `<!doctype html><html><head><title>Ignored · Site</title><script>alert(1)</script><style>p{}</style></head>
<body><header>Header <a href="/docs/header-link">h</a></header><nav><a href="/docs/nav">Nav</a></nav>
<main>
  <h1>Getting started</h1>
  <p>Read <a href="guide#install">the guide</a>, <a href="https://example.com/x">elsewhere</a> and <a href="/docs/other?x=1">other</a>.</p>
  <h2>Steps</h2>
  <ol><li>One</li><li>Two <strong>bold</strong></li></ol>
  <ul><li>Apple</li><li>Pear</li></ul>
  <pre><code class="language-ts">const x = 1;</code></pre>
  <table><thead><tr><th>A</th><th>B</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>
  <p><img src="img/shot.png" alt="Shot"></p>
  <aside>Aside</aside><script>evil()</script>
</main>
<footer>Footer</footer></body></html>`;

describe('HTML page → Markdown', () => {
  const page = parsePage(HTML, 'https://site.example/docs/start');

  it('finds the links to crawl anywhere, images and the title in the main content only', () => {
    expect(page.title).toBe('Getting started');
    expect(page.links.sort()).toEqual(
      [
        'https://example.com/x',
        'https://site.example/docs/guide',
        'https://site.example/docs/header-link',
        'https://site.example/docs/nav',
        'https://site.example/docs/other?x=1',
      ].sort(),
    );
    expect(page.images).toEqual(['https://site.example/docs/img/shot.png']);
  });

  it('converts headings, lists, code, tables, images and links (hast → mdast → Markdown), without navigation, header, footer, aside or scripts', () => {
    const md = markdownOf(page, {
      link: (url) => (url === 'https://site.example/docs/guide' ? './page-1.md' : undefined),
      image: (url) => (url.endsWith('shot.png') ? './file-0' : undefined),
    });
    expect(md).toContain('# Getting started');
    expect(md).toContain('[the guide](./page-1.md#install)');
    expect(md).toContain('[elsewhere](https://example.com/x)');
    expect(md).toContain('## Steps');
    expect(md).toMatch(/1\. One\n+2\. Two \*\*bold\*\*/);
    expect(md).toMatch(/- Apple\n+- Pear/);
    expect(md).toContain('```ts\nconst x = 1;\n```');
    expect(md).toMatch(/\| A +\| B +\|/);
    expect(md).toContain('![Shot](./file-0)');
    expect(md).not.toMatch(/Header|Nav|Footer|Aside|alert|evil|Ignored/);
    // and the content's own converter reads it: a title, and the expected block types
    const { document, title } = markdownToDocument(md, { resolveLink: () => ({ kind: 'page', page: 'p1' }), resolveFile: () => ({ kind: 'file', file: 'f0' }) });
    expect(title).toBe('Getting started');
    expect(document.nodes.map((n) => (n as { type?: string }).type)).toEqual(['paragraph', 'heading-1', 'list-ordered', 'list-unordered', 'code', 'table', 'images']);
  });
});

describe('page tree from URL paths', () => {
  it('names places without index.html or .html', () => {
    expect(segmentsOf('https://x/docs/', '/docs/')).toEqual([]);
    expect(segmentsOf('https://x/docs/index.html', '/docs/')).toEqual([]);
    expect(segmentsOf('https://x/docs/a/b.html', '/docs/')).toEqual(['a', 'b']);
    expect(segmentsOf('https://x/docs/a/b/', '/docs/')).toEqual(['a', 'b']);
    expect(segmentsOf('https://x/docs/a%20b', '/docs/')).toEqual(['a b']);
  });

  it('places pages under their nearest crawled ancestor path, parents first; duplicates keep the first', () => {
    const crawled = ['/docs/', '/docs/a/b/c', '/docs/a', '/docs/x/y', '/docs/a/', '/docs/a/b'].map((path, i) => ({
      url: `https://x${path}`,
      depth: i,
      parsed: { title: path, links: [], images: [], main: { type: 'root' as const, children: [] } },
    }));
    const { planned, duplicates, refOfUrl } = planTree(crawled, '/docs/');
    expect(planned.map((p) => [p.page.url.slice('https://x'.length), p.parent ? p.parent.page.url.slice('https://x'.length) : null])).toEqual([
      ['/docs/', null],
      ['/docs/a', null],
      ['/docs/x/y', null],
      ['/docs/a/b', '/docs/a'],
      ['/docs/a/b/c', '/docs/a/b'],
    ]);
    expect(duplicates).toBe(1);
    expect(refOfUrl.get('https://x/docs/a/')).toBe(refOfUrl.get('https://x/docs/a'));
  });
});
