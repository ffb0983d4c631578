import { gitRedirectSource, readGitbookConfig, resolveGitRedirects } from './index';

describe('.gitbook.yaml redirects', () => {
  const pages = new Map([
    ['README.md', 'p-home'],
    ['guide/install.md', 'p-install'],
    ['guide/README.md', 'p-guide'],
  ]);

  test('sources become paths below the space, valid as site redirect sources', () => {
    expect(gitRedirectSource('old/path')).toBe('/old/path');
    expect(gitRedirectSource('/old/path/')).toBe('/old/path');
    expect(gitRedirectSource('./a b/ç')).toBe('/a%20b/%C3%A7');
    expect(gitRedirectSource('old/*')).toBe('/old/%2A');
    expect(gitRedirectSource('a%20b')).toBe('/a%20b');
    expect(gitRedirectSource('')).toBeUndefined();
    expect(gitRedirectSource('/')).toBeUndefined();
    expect(gitRedirectSource('../up')).toBeUndefined();
    expect(gitRedirectSource('x'.repeat(600))).toBeUndefined();
  });

  test('targets lead to the page imported from the file, its anchor, or a URL; the rest is left out', () => {
    const config = readGitbookConfig(
      [
        'redirects:',
        '  old/install: guide/install.md',
        '  setup: ./guide/install.md#linux',
        '  guide-home: guide/',
        '  blog: https://blog.example.com/post',
        '  gone: missing.md',
        '  asset: .gitbook/assets/a.png',
        '  /old/install/: README.md',
        '  "..": README.md',
      ].join('\n'),
    );
    expect(resolveGitRedirects(config.redirects, pages)).toEqual({
      redirects: [
        { source: '/old/install', pageId: 'p-install', anchor: '', url: '' },
        { source: '/setup', pageId: 'p-install', anchor: 'linux', url: '' },
        { source: '/guide-home', pageId: 'p-guide', anchor: '', url: '' },
        { source: '/blog', pageId: '', anchor: '', url: 'https://blog.example.com/post' },
      ],
      leftOut: ['gone', 'asset', '/old/install/', '..'],
    });
  });

  test('bounded: an anchor too long, and past the size one event can carry, are left out', () => {
    const pageOfFile = new Map([['guide.md', 'p1']]);
    const long = resolveGitRedirects({ 'old/a': `guide.md#${'x'.repeat(201)}`, 'old/b': 'guide.md#ok' }, pageOfFile);
    expect([long.redirects.map((r) => r.source), long.leftOut]).toEqual([['/old/b'], ['old/a']]);
    const many = Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`old/${i}-${'s'.repeat(400)}`, `https://example.com/${'u'.repeat(1500)}`]));
    const bounded = resolveGitRedirects(many, pageOfFile);
    expect(bounded.redirects.length).toBeLessThan(1500);
    expect(JSON.stringify(bounded.redirects).length).toBeLessThan(300 * 1024);
    expect(bounded.redirects.length + bounded.leftOut.length).toBe(1500);
  });
});
