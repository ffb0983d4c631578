import { exportPaths, parseRemote, parseSummary, readGitbookConfig, treeOfRepository, writeSummary } from './index';

describe('GitBook layout', () => {
  test('SUMMARY.md: groups, nesting, link titles, each file once', () => {
    const tree = parseSummary(
      '# Table of contents\n\n* [Intro](README.md)\n* [Guide](guide/README.md)\n  * [Step one](guide/one.md)\n\n## Reference\n\n* [API](api.md)\n* [Again](api.md)\n* [Out](https://example.com)\n',
    );
    expect(tree).toEqual([
      { kind: 'page', title: 'Intro', file: 'README.md', children: [] },
      { kind: 'page', title: 'Guide', file: 'guide/README.md', children: [{ kind: 'page', title: 'Step one', file: 'guide/one.md', children: [] }] },
      { kind: 'group', title: 'Reference', children: [{ kind: 'page', title: 'API', file: 'api.md', children: [] }] },
    ]);
  });

  test('files SUMMARY.md leaves out are still imported', () => {
    const tree = treeOfRepository(['README.md', 'a.md', 'extra.md'], readGitbookConfig(undefined), '* [A](a.md)\n');
    expect(tree.map((e) => e.file)).toEqual(['README.md', 'a.md', 'extra.md']);
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
