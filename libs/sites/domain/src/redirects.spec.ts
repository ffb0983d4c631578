import { appendSuffix, assertRedirectSource, candidateSources, capturedSuffix, matchingRedirect, destinationOf, redirectJson } from './redirects';
import { pageUrl, sectionUrl, SiteAddresses, siteSpaceUrl } from './site-urls';

describe('redirect sources', () => {
  it.each([
    ['/guides', true],
    ['/guides/setup', true],
    ['/guides/*', true],
    ['/guides*', true],
    ['/caf%C3%A9/menu', true],
    ['/a.b~c+d_e-f', true],
    ['/', false],
    ['/*', false],
    ['guides', false],
    ['/guides/', false],
    ['/guides//setup', false],
    ['/gui*des', false],
    ['/guides/**', false],
    ['/with space', false],
    ['/bad%zz', false],
    ['/query?x=1', false],
    [`/${'a'.repeat(512)}`, false],
  ])('%s is a source: %s', (source, ok) => {
    const check = () => assertRedirectSource(source);
    if (ok) expect(check).not.toThrow();
    else expect(check).toThrow(/source must be a path/);
  });

  it('a path may go through itself, its directory wildcard, or any wildcard prefix (longest first)', () => {
    expect(candidateSources('/a/bc')).toEqual(['/a/bc', '/a/bc/*', '/a/bc*', '/a/b*', '/a/*', '/a*']);
    expect(candidateSources('/a/*')).toEqual(['/a/*']);
  });

  it('the exact source wins, then the longest wildcard prefix', () => {
    const r = (source: string) => ({ source });
    expect(matchingRedirect('/docs/intro', [r('/docs/*'), r('/docs/intro'), r('/d*')])).toEqual(r('/docs/intro'));
    expect(matchingRedirect('/docs/intro/more', [r('/docs/*'), r('/docs/intro/*'), r('/d*')])).toEqual(r('/docs/intro/*'));
    expect(matchingRedirect('/docs', [r('/docs/*')])).toEqual(r('/docs/*'));
    expect(matchingRedirect('/documents', [r('/docs/*'), r('/doc*')])).toEqual(r('/doc*'));
    expect(matchingRedirect('/other', [r('/docs/*'), r('/docs')])).toBeUndefined();
  });

  it('captures what the wildcard matched and appends it to the destination', () => {
    expect(capturedSuffix('/old/*', '/old/a/b')).toBe('a/b');
    expect(capturedSuffix('/old/*', '/old')).toBe('');
    expect(capturedSuffix('/old*', '/older/x')).toBe('er/x');
    expect(capturedSuffix('/old', '/old')).toBe('');
    expect(appendSuffix('https://example.com/new', 'a/b', '/old/*')).toBe('https://example.com/new/a/b');
    expect(appendSuffix('https://example.com/new/', 'a/b', '/old/*')).toBe('https://example.com/new/a/b');
    expect(appendSuffix('https://example.com/new?x=1#top', 'a', '/old/*')).toBe('https://example.com/new/a?x=1#top');
    expect(appendSuffix('https://example.com/new', 'er/x', '/old*')).toBe('https://example.com/newer/x');
    expect(appendSuffix('https://example.com/new', '', '/old/*')).toBe('https://example.com/new');
  });
});

describe('redirect destinations', () => {
  it('takes the official shapes, and a page by path only on create', () => {
    expect(destinationOf({ kind: 'site-section', siteSectionId: 'sec1' }, false)).toEqual({ kind: 'site-section', siteSectionId: 'sec1' });
    expect(destinationOf({ kind: 'site-space', siteSpaceId: 'ss1' }, false)).toEqual({ kind: 'site-space', siteSpaceId: 'ss1' });
    expect(destinationOf({ kind: 'site-page', siteSpaceId: 'ss1', pageId: 'p1' }, false)).toEqual({ kind: 'site-page', siteSpaceId: 'ss1', pageId: 'p1' });
    expect(destinationOf({ kind: 'external', url: 'https://example.com/x' }, false)).toEqual({ kind: 'external', url: 'https://example.com/x' });
    expect(destinationOf({ kind: 'path', spaceId: 'sp1', path: 'guides/setup' }, true)).toEqual({ kind: 'path', spaceId: 'sp1', path: 'guides/setup' });
    expect(() => destinationOf({ kind: 'path', spaceId: 'sp1', path: 'x' }, false)).toThrow(/destination.kind must be one of site-section, site-space, site-page, external\./);
  });

  it.each([
    ['none', undefined, /must be an object/],
    ['an unknown kind', { kind: 'elsewhere' }, /destination.kind/],
    ['no id', { kind: 'site-space' }, /siteSpaceId must be an id/],
    ['a path for an id', { kind: 'site-space', siteSpaceId: 'a/b' }, /siteSpaceId must be an id/],
    ['a field of another kind', { kind: 'site-space', siteSpaceId: 'ss1', pageId: 'p' }, /fields its kind does not take: pageId/],
    ['a script URL', { kind: 'external', url: 'javascript:alert(1)' }, /http or https/],
    ['a relative URL', { kind: 'external', url: '/relative' }, /http or https/],
    ['a data URL', { kind: 'external', url: 'data:text/html,x' }, /http or https/],
  ])('refuses %s', (_, d, message) => {
    expect(() => destinationOf(d, true)).toThrow(message);
  });
});

describe('redirect targets', () => {
  const addresses: SiteAddresses = {
    siteUrl: 'https://docs.example.com',
    defaultSectionId: 'secA',
    sections: new Map([
      ['secA', { path: 'guides', defaultSiteSpaceId: 'ss1' }],
      ['secB', { path: 'api reference', defaultSiteSpaceId: 'ss3' }],
    ]),
    siteSpaces: new Map([
      ['ss1', { path: 'v2', sectionId: 'secA', spaceId: 'sp1' }],
      ['ss2', { path: 'v1', sectionId: 'secA', spaceId: 'sp2' }],
      ['ss3', { path: 'rest', sectionId: 'secB', spaceId: 'sp3' }],
      ['ss4', { path: 'graphql', sectionId: 'secB', spaceId: 'sp4' }],
    ]),
  };

  it('leaves out the default section and default site spaces, encodes the others', () => {
    expect(sectionUrl(addresses, 'secA')).toBe('https://docs.example.com');
    expect(sectionUrl(addresses, 'secB')).toBe('https://docs.example.com/api%20reference');
    expect(siteSpaceUrl(addresses, 'ss1')).toBe('https://docs.example.com');
    expect(siteSpaceUrl(addresses, 'ss2')).toBe('https://docs.example.com/v1');
    expect(siteSpaceUrl(addresses, 'ss3')).toBe('https://docs.example.com/api%20reference');
    expect(siteSpaceUrl(addresses, 'ss4')).toBe('https://docs.example.com/api%20reference/graphql');
    expect(sectionUrl(addresses, 'gone')).toBeUndefined();
    expect(siteSpaceUrl(addresses, 'gone')).toBeUndefined();
  });

  it('roots site spaces at the site when it has no sections', () => {
    const flat: SiteAddresses = {
      siteUrl: 'http://reader/docs',
      defaultSiteSpaceId: 'ss1',
      sections: new Map(),
      siteSpaces: new Map([
        ['ss1', { path: 'a', spaceId: 'sp1' }],
        ['ss2', { path: 'b', spaceId: 'sp2' }],
      ]),
    };
    expect(siteSpaceUrl(flat, 'ss1')).toBe('http://reader/docs');
    expect(siteSpaceUrl(flat, 'ss2')).toBe('http://reader/docs/b');
    expect(pageUrl('http://reader/docs/b', 'guides/caf\u00e9')).toBe('http://reader/docs/b/guides/caf%C3%A9');
    expect(pageUrl('http://reader/docs/b', '')).toBe('http://reader/docs/b');
  });

  it('shows updatedAt only once the redirect was updated', () => {
    const base = {
      _id: 'r1',
      organizationId: 'o',
      siteId: 's',
      source: '/a',
      destination: { kind: 'external' as const, url: 'https://x.example' },
      captureWildcard: false,
      draft: false,
      permanent: true,
    };
    expect(redirectJson({ ...base, createdAt: 'T1', updatedAt: 'T1' })).toEqual({
      object: 'site-redirect',
      id: 'r1',
      source: '/a',
      draft: false,
      captureWildcard: false,
      permanent: true,
      destination: { kind: 'external', url: 'https://x.example' },
      createdAt: 'T1',
    });
    expect(redirectJson({ ...base, createdAt: 'T1', updatedAt: 'T2' }).updatedAt).toBe('T2');
  });
});
