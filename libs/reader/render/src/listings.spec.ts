import { flattenTree, navigationTree, neighbours, pageAtPath, firstPage } from './tree';
import { llmsTxt, robotsTxt, sitemapEntries, sitemapXml, ListedSpace, pageUrl, markdownUrl } from './listings';
import { pageMarkdown } from './markdown';
import type { Document, PageNode, RenderContext } from './types';

const page = (id: string, path: string, extra: Partial<PageNode> = {}): PageNode => ({
  id,
  type: 'document',
  title: id.toUpperCase(),
  slug: path.split('/').pop(),
  path,
  pages: [],
  ...extra,
});

const tree: PageNode[] = [
  page('intro', 'intro', { description: 'Start here' }),
  {
    id: 'guides',
    type: 'group',
    title: 'Guides',
    path: 'guides',
    pages: [page('install', 'install', { pages: [page('docker', 'install/docker')] }), page('secret', 'secret', { hidden: true, pages: [page('under', 'secret/under')] })],
  },
  page('internal', 'internal', { noIndex: true, pages: [page('child', 'internal/child')] }),
  page('norobots', 'norobots', { noRobotsIndex: true }),
  { id: 'ext', type: 'link', title: 'GitHub', target: { kind: 'url', url: 'https://github.com' } },
];

describe('page trees', () => {
  const entries = flattenTree(tree);

  test('reading order, inherited hidden / noIndex / noRobotsIndex', () => {
    expect(entries.map((e) => [e.page.id, e.hidden, e.noIndex, e.noRobotsIndex])).toEqual([
      ['intro', false, false, false],
      ['guides', false, false, false],
      ['install', false, false, false],
      ['docker', false, false, false],
      ['secret', true, false, false],
      ['under', true, false, false],
      ['internal', false, true, true],
      ['child', false, true, true],
      ['norobots', false, false, true],
      ['ext', false, false, false],
    ]);
  });

  test('paths: "" is the first page; hidden pages are still found', () => {
    expect(firstPage(entries)?.page.id).toBe('intro');
    expect(pageAtPath(entries, '')?.page.id).toBe('intro');
    expect(pageAtPath(entries, 'install/docker/')?.page.id).toBe('docker');
    expect(pageAtPath(entries, 'secret/under')?.page.id).toBe('under');
    expect(pageAtPath(entries, 'guides')).toBeUndefined();
    expect(pageAtPath(entries, 'nope')).toBeUndefined();
  });

  test('navigation leaves hidden pages out; previous/next skip them', () => {
    const nav = navigationTree(tree);
    expect(nav.map((p) => p.id)).toEqual(['intro', 'guides', 'internal', 'norobots', 'ext']);
    expect(nav[1].pages!.map((p) => p.id)).toEqual(['install']);
    expect(neighbours(entries, 'docker')).toMatchObject({ previous: { page: { id: 'install' } }, next: { page: { id: 'internal' } } });
    expect(neighbours(entries, 'intro').previous).toBeUndefined();
  });
});

describe('llms.txt, sitemap.xml, robots.txt', () => {
  const spaces: ListedSpace[] = [
    { title: 'Docs', baseUrl: 'https://r.example/acme', pages: flattenTree(tree) },
    { title: 'API › v2', baseUrl: 'https://r.example/acme/api/v2', pages: flattenTree([page('ref', 'reference', { description: 'Every call\nlisted' })]) },
  ];

  test('page URLs: the first page at the space root; Markdown at <path>.md', () => {
    const [docs] = spaces;
    expect(pageUrl(docs, docs.pages[0])).toBe('https://r.example/acme/');
    expect(pageUrl(docs, docs.pages[3])).toBe('https://r.example/acme/install/docker');
    expect(markdownUrl(docs, docs.pages[0])).toBe('https://r.example/acme/intro.md');
  });

  test('llms.txt lists every space, leaving hidden and noIndex pages out', () => {
    expect(llmsTxt({ title: 'Acme', description: 'Docs of Acme' }, spaces)).toBe(
      [
        '# Acme',
        '',
        '> Docs of Acme',
        '',
        '## Docs',
        '',
        '- [INTRO](https://r.example/acme/intro.md): Start here',
        '- [INSTALL](https://r.example/acme/install.md)',
        '- [DOCKER](https://r.example/acme/install/docker.md)',
        '- [NOROBOTS](https://r.example/acme/norobots.md)',
        '',
        '## API › v2',
        '',
        '- [REF](https://r.example/acme/api/v2/reference.md): Every call listed',
        '',
      ].join('\n'),
    );
  });

  test('the sitemap covers every space, without hidden, noIndex or noRobotsIndex pages', () => {
    expect(sitemapEntries(spaces).map((e) => e.loc)).toEqual([
      'https://r.example/acme/',
      'https://r.example/acme/install',
      'https://r.example/acme/install/docker',
      'https://r.example/acme/api/v2/',
    ]);
    expect(sitemapXml([{ loc: 'https://r.example/a?b&c', lastmod: '2026-01-01T00:00:00Z' }])).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n  <url><loc>https://r.example/a?b&amp;c</loc><lastmod>2026-01-01T00:00:00Z</lastmod></url>\n</urlset>\n',
    );
  });

  test('robots.txt: public sites allow and name the sitemap; others disallow everything', () => {
    expect(robotsTxt({ indexable: true, sitemapUrl: 'https://r.example/acme/sitemap.xml' })).toBe('User-agent: *\nAllow: /\n\nSitemap: https://r.example/acme/sitemap.xml\n');
    expect(robotsTxt({ indexable: false })).toBe('User-agent: *\nDisallow: /\n');
  });
});

describe('page Markdown', () => {
  const ctx: RenderContext = {
    link: (ref) => (ref.kind === 'page' ? { href: `https://r.example/acme/${String(ref.page)}` } : ref.kind === 'url' ? { href: String(ref.url) } : undefined),
    file: (id) => ({ id, name: 'a.png', contentType: 'image/png', size: 1, url: `https://r.example/acme/~files/${id}/a.png` }),
    reusableContent: () => ({
      object: 'document',
      data: {},
      nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Reused', marks: [] }] }] }],
    }),
    condition: (e) => e === 'yes',
  };
  const text = (s: string) => ({ object: 'text' as const, leaves: [{ object: 'leaf' as const, text: s, marks: [] }] });
  const doc: Document = {
    object: 'document',
    data: {},
    nodes: [
      { object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'inline', type: 'link', data: { ref: { kind: 'page', page: 'install' } }, nodes: [text('Install')] }] },
      { object: 'block', type: 'reusable-content', data: { ref: { kind: 'reusable-content', reusableContent: 'r' } } },
      { object: 'block', type: 'if', data: { expression: 'yes' }, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [text('Shown')] }] },
      { object: 'block', type: 'if', data: { expression: 'no' }, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [text('Never')] }] },
      { object: 'block', type: 'images', data: {}, nodes: [{ object: 'block', type: 'image', data: { ref: { kind: 'file', file: 'f1' }, alt: 'A' }, fragments: [] }] },
    ],
  };

  test('title, description, reader links, files, reusable content in place, conditions applied', () => {
    const md = pageMarkdown({ id: 'p', type: 'document', title: 'Welcome', description: 'The start' }, doc, ctx);
    expect(md).toContain('description: The start');
    expect(md).toContain('# Welcome');
    expect(md).toContain('[Install](https://r.example/acme/install)');
    expect(md).toContain('Reused');
    expect(md).toContain('Shown');
    expect(md).not.toContain('Never');
    expect(md).toContain('https://r.example/acme/~files/f1/a.png');
  });
});
