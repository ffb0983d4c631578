import { basenameOf, checkBasename, checkPath, pathCandidate, sectionPath, siteSpacePath, slugOf, uniquePath, uniqueSiteSpacePaths } from './site-paths';
import { organizationUrlOf, shareKeyInPath, shareLinkUrl, siteUrlOf, publishedUrlOf } from './site-urls';

describe('site paths', () => {
  test('a slug keeps ASCII letters and digits, drops accents, joins the rest with single hyphens', () => {
    expect(slugOf('  Hello, World!  ')).toBe('hello-world');
    expect(slugOf('Café Déjà Vu')).toBe('cafe-deja-vu');
    expect(slugOf('API v2 -- Reference')).toBe('api-v2-reference');
    expect(slugOf('日本語')).toBe('');
    expect(slugOf('a'.repeat(99) + ' b')).toBe('a'.repeat(99));
  });

  test('a basename and a site-space path fall back when the title gives no slug', () => {
    expect(basenameOf('Developer Docs')).toBe('developer-docs');
    expect(basenameOf('日本語')).toBe('site');
    expect(siteSpacePath('Getting Started')).toBe('getting-started');
    expect(siteSpacePath('!!!')).toBe('space');
  });

  test('candidates count from 2 and stay within 100 characters', () => {
    expect([1, 2, 3].map((n) => pathCandidate('docs', n))).toEqual(['docs', 'docs-2', 'docs-3']);
    const long = 'x'.repeat(100);
    expect(pathCandidate(long, 12)).toBe(`${'x'.repeat(97)}-12`);
    expect(uniquePath('docs', new Set(['docs', 'docs-2']))).toBe('docs-3');
  });

  test('site-space paths are unique among themselves and the paths already taken, in order', () => {
    expect(uniqueSiteSpacePaths(['Guide', 'Guide', 'API', 'guide'], ['api'])).toEqual(['guide', 'guide-2', 'api-2', 'guide-3']);
  });

  test('section paths come from titles and are made unique with suffixes', () => {
    expect(sectionPath('Getting Started!')).toBe('getting-started');
    expect(sectionPath('***')).toBe('section');
    expect(sectionPath('Über Straße')).toBe('uber-stra-e');
    expect(uniquePath('docs', new Set())).toBe('docs');
    expect(uniquePath('x'.repeat(100), new Set(['x'.repeat(100)]))).toHaveLength(100);
  });

  test('chosen section and site-space paths are taken only as slugs', () => {
    expect(checkPath('v2-beta', 'path')).toBe('v2-beta');
    for (const bad of ['~share', 'a/b', 'A', '-a', 'a-', 'a b', '', 'x'.repeat(101)]) expect(() => checkPath(bad, 'path')).toThrow(/lower-case/);
  });

  test('a chosen basename must be a slug and not reserved', () => {
    expect(checkBasename('my-docs')).toBe('my-docs');
    for (const bad of ['', 'My-Docs', '-docs', 'docs-', 'a/b', '~share', 'x'.repeat(101), 'healthz']) {
      expect(() => checkBasename(bad)).toThrow(expect.objectContaining({ kind: 'invalid' }));
    }
  });
});

describe('site URLs', () => {
  const site = { basename: 'docs', published: true };
  test("an organization's sites live under the reader by its hostname or id, or at its own host below the reader domain", () => {
    const reader = { readerUrl: 'http://reader.test/' };
    expect(organizationUrlOf(reader, { id: 'AbC_d-1', hostname: 'acme' })).toBe('http://reader.test/acme');
    expect(organizationUrlOf(reader, { id: 'AbC_d-1' })).toBe('http://reader.test/AbC_d-1');
    const withDomain = { readerUrl: 'https://reader.test', readerDomain: 'docs.test:8443' };
    expect(organizationUrlOf(withDomain, { id: 'AbC_d-1', hostname: 'acme' })).toBe('https://acme.docs.test:8443');
    // no hostname, no host: an id is no DNS label
    expect(organizationUrlOf(withDomain, { id: 'AbC_d-1' })).toBe('https://reader.test/AbC_d-1');
  });

  test("a site is served under its organization's URL by its basename, or at its own hostname", () => {
    expect(siteUrlOf(site, 'http://reader.test/acme/')).toBe('http://reader.test/acme/docs');
    expect(siteUrlOf({ ...site, hostname: 'docs.example.com' }, 'http://reader.test/acme')).toBe('https://docs.example.com');
    expect(publishedUrlOf({ ...site, published: false }, 'http://reader.test/acme')).toBeUndefined();
  });

  test('a share link carries its key in a path segment the reader reads back', () => {
    const url = shareLinkUrl('http://reader.test/docs', 'bshare_abc-DEF_123');
    expect(url).toBe('http://reader.test/docs/~share/bshare_abc-DEF_123');
    const below = url.slice('http://reader.test/docs'.length);
    expect(shareKeyInPath(below)).toEqual({ key: 'bshare_abc-DEF_123', rest: '' });
    expect(shareKeyInPath(`${below}/guide/intro?x=1`)).toEqual({ key: 'bshare_abc-DEF_123', rest: 'guide/intro' });
    expect(shareKeyInPath('/guide/intro')).toBeUndefined();
  });
});
