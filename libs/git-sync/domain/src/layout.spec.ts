import { ExportPage, exportPaths, parseRemote, parseSummary, readGitbookConfig, slugOfFile, treeOfRepository, writeSummary } from './index';

describe('GitBook layout', () => {
  test('SUMMARY.md: groups, nesting, link titles, each file once', () => {
    const tree = parseSummary(
      '# Table of contents\n\n* [Intro](README.md)\n* [Guide](guide/README.md)\n  * [Step one](guide/one.md)\n\n## Reference\n\n* [API](api.md)\n* [Again](api.md)\n* [Out](https://example.com)\n',
    );
    expect(tree).toEqual([
      { kind: 'page', title: 'Intro', file: 'README.md', children: [] },
      { kind: 'page', title: 'Guide', file: 'guide/README.md', children: [{ kind: 'page', title: 'Step one', file: 'guide/one.md', children: [] }] },
      {
        kind: 'group',
        title: 'Reference',
        children: [
          { kind: 'page', title: 'API', file: 'api.md', children: [] },
          { kind: 'link', title: 'Out', href: 'https://example.com', children: [] },
        ],
      },
    ]);
  });

  test('SUMMARY.md: links outside are link pages, kept where they stand; a group heading loses its anchor', () => {
    const tree = parseSummary(
      '# Summary\n\n## Build <a href="#build" id="build"></a>\n\n* [Guide](guide.md)\n  * [GitHub examples](https://github.com/x/y "Examples")\n* [Mail us](mailto:a@example.com)\n',
    );
    expect(tree).toEqual([
      {
        kind: 'group',
        title: 'Build',
        children: [
          { kind: 'page', title: 'Guide', file: 'guide.md', children: [{ kind: 'link', title: 'GitHub examples', href: 'https://github.com/x/y', children: [] }] },
          { kind: 'link', title: 'Mail us', href: 'mailto:a@example.com', children: [] },
        ],
      },
    ]);
    const files = treeOfRepository(['guide.md'], readGitbookConfig(undefined), '* [Guide](guide.md)\n* [Out](https://example.com)\n');
    expect(files.map((e) => e.kind)).toEqual(['page', 'link']);
  });

  test('slugs come from file names, as GitBook derives them', () => {
    expect(slugOfFile('integrations/configurations.md')).toBe('configurations');
    expect(slugOfFile('integrations/reference/README.md')).toBe('reference');
    expect(slugOfFile('README.md')).toBeUndefined();
    expect(slugOfFile('Getting Started.md')).toBe('getting-started');
    expect(slugOfFile('intro.md', 'intro.md')).toBeUndefined();
  });

  test('export paths: a page keeps its known file whatever its place (a dir/README.md without sub-pages too), so nothing unchanged moves or is removed', () => {
    const doc = (id: string, slug: string, children: ExportPage[] = []): ExportPage => ({ id, type: 'document' as const, title: slug, slug, children });
    // a dir/README.md without sub-pages, a page with sub-pages in a file that is not a README, the readme second
    const pages = [doc('p0', 'intro'), doc('p1', 'reference'), { ...doc('p2', 'guide'), children: [doc('p3', 'one'), doc('p4', 'new')] }, doc('p5', 'home')];
    const known = { p0: 'intro.md', p1: 'api-reference/README.md', p2: 'guide/README.md', p3: 'steps/one.md', p5: 'README.md' };
    const paths = exportPaths(pages, 'README.md', known);
    expect(Object.fromEntries(paths)).toEqual({ ...known, p4: 'guide/new.md' });
    // a page gaining sub-pages in a file that is no README moves to <dir>/README.md
    const grown = exportPaths([{ ...doc('p1', 'reference'), children: [doc('p6', 'more')] }, doc('p2', 'guide', [doc('p4', 'new')])], 'README.md', {
      p1: 'reference.md',
      p2: 'guide.md',
    });
    expect(Object.fromEntries(grown)).toEqual({ p1: 'README.md', p6: 'more.md', p2: 'guide/README.md', p4: 'guide/new.md' });
    // one whose sub-pages the repository already had (`x.md` with children in SUMMARY.md) stays
    const real = exportPaths([doc('p0', 'home'), doc('p1', 'sequential-agents', [doc('p2', 'video')])], 'README.md', {
      p0: 'README.md',
      p1: 'agentflows/sequential-agents.md',
      p2: 'agentflows/sequential-agents/video.md',
    });
    expect(real.get('p1')).toBe('agentflows/sequential-agents.md');
    // a new first page never takes the readme another page holds
    expect(exportPaths([doc('n1', 'fresh'), doc('p5', 'home')], 'README.md', { p5: 'README.md' }).get('n1')).toBe('fresh.md');
  });

  test('SUMMARY.md written back: link pages as links', () => {
    const pages = [
      { id: 'p1', type: 'document' as const, title: 'Home', slug: 'home', children: [] },
      { id: 'l1', type: 'link' as const, title: 'GitHub [examples]', slug: 'github', href: 'https://github.com/x/y', children: [] },
    ];
    expect(writeSummary(pages, exportPaths(pages, 'README.md'))).toBe('# Table of contents\n\n* [Home](README.md)\n* [GitHub \\[examples\\]](https://github.com/x/y)\n');
  });

  test('files SUMMARY.md leaves out are still imported', () => {
    const tree = treeOfRepository(['README.md', 'a.md', 'extra.md'], readGitbookConfig(undefined), '* [A](a.md)\n');
    expect(tree.map((e) => e.file)).toEqual(['README.md', 'a.md', 'extra.md']);
    expect(tree.map((e) => !!e.unlisted)).toEqual([false, false, true]);
  });

  test('.gitbook.yaml: root and structure, with defaults', () => {
    expect(readGitbookConfig('root: ./docs/\nstructure:\n  readme: intro.md\n')).toEqual({ root: 'docs', readme: 'intro.md', summary: 'SUMMARY.md', redirects: {} });
  });

  test('export paths: readme first, dir/README.md for a page with children, and back to SUMMARY.md', () => {
    const pages = [
      { id: 'p1', type: 'document' as const, title: 'Home', slug: 'home', children: [] },
      { id: 'p2', type: 'document' as const, title: 'Guide', slug: 'guide', children: [{ id: 'p3', type: 'document' as const, title: 'One', slug: 'one', children: [] }] },
    ];
    const paths = exportPaths(pages, 'README.md');
    expect([...paths]).toEqual([
      ['p1', 'README.md'],
      ['p2', 'guide/README.md'],
      ['p3', 'guide/one.md'],
    ]);
    expect(writeSummary(pages, paths)).toBe('# Table of contents\n\n* [Home](README.md)\n* [Guide](guide/README.md)\n  * [One](guide/one.md)\n');
  });

  test('credentials leave the URL', () => {
    const r = parseRemote('https://user:p%40ss@git.example.com/org/repo.git');
    expect(r).toEqual({
      url: 'https://git.example.com/org/repo.git',
      host: 'git.example.com',
      port: 443,
      authorization: `Basic ${Buffer.from('user:p@ss').toString('base64')}`,
      repoName: 'org/repo',
    });
  });
});
