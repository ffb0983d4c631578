import { audienceSpaceIds, conditionVisitor, decodeSegments, locateInSite, parsePublishedUrl, ShownStructure } from './published-urls';
import type { SectionRecord, SiteSpaceRecord } from './site-records';

const T = '2026-01-01T00:00:00.000Z';
const section = (id: string, path: string, extra: Partial<SectionRecord> = {}): SectionRecord => ({
  _id: id,
  organizationId: 'o',
  siteId: 's',
  title: id,
  path,
  order: 0,
  createdAt: T,
  updatedAt: T,
  ...extra,
});
const siteSpace = (id: string, path: string, extra: Partial<SiteSpaceRecord> = {}): SiteSpaceRecord => ({
  _id: id,
  organizationId: 'o',
  siteId: 's',
  spaceId: `space-${id}`,
  path,
  order: 0,
  createdAt: T,
  updatedAt: T,
  ...extra,
});

describe('parsePublishedUrl', () => {
  const R = { readerUrl: 'http://reader.test:8090' };
  const D = { readerUrl: 'https://reader.test', readerDomain: 'docs.test' };

  it('takes the organization and the basename under the reader URL (either scheme, its path prefix kept), any other host as a hostname', () => {
    expect(parsePublishedUrl('http://reader.test:8090/acme/docs/v2/intro?x=1#top', R)).toEqual({
      site: { organization: 'acme', basename: 'docs', form: 'path' },
      segments: ['v2', 'intro'],
      legacy: { basename: 'acme', segments: ['docs', 'v2', 'intro'] },
    });
    expect(parsePublishedUrl('https://reader.test:8090/acme/docs/', R)).toMatchObject({ site: { organization: 'acme', basename: 'docs' }, segments: [] });
    expect(parsePublishedUrl('https://example.com/read/acme/docs/a', { readerUrl: 'https://example.com/read' })).toMatchObject({
      site: { organization: 'acme', basename: 'docs' },
      segments: ['a'],
    });
    expect(parsePublishedUrl('https://Docs.Example.COM/a/b', R)).toEqual({ site: { hostname: 'docs.example.com' }, segments: ['a', 'b'] });
    // the reader's host on another port is another host
    expect(parsePublishedUrl('http://reader.test:9999/docs', R)).toEqual({ site: { hostname: 'reader.test' }, segments: ['docs'] });
  });

  it('reads one segment under the reader URL only as the earlier form `<reader>/<basename>`', () => {
    expect(parsePublishedUrl('http://reader.test:8090/docs', R)).toEqual({
      site: { organization: 'docs', basename: '', form: 'path' },
      segments: [],
      legacy: { basename: 'docs', segments: [] },
    });
  });

  it('takes the organization from a host below the reader domain, the basename from the path', () => {
    expect(parsePublishedUrl('https://Acme.Docs.test/handbook/a', D)).toEqual({ site: { organization: 'acme', basename: 'handbook', form: 'host' }, segments: ['a'] });
    expect(parsePublishedUrl('https://acme.docs.test/handbook/~share/k/a', D)).toMatchObject({ shareKey: 'k', segments: ['a'] });
    // deeper hosts and the domain itself are hostnames
    expect(parsePublishedUrl('https://a.b.docs.test/x', D)).toMatchObject({ site: { hostname: 'a.b.docs.test' } });
    expect(parsePublishedUrl('https://docs.test/x', D)).toMatchObject({ site: { hostname: 'docs.test' } });
    expect(parsePublishedUrl('https://acme.docs.test/', D)).toBeUndefined();
  });

  it('takes a share key from the segment right below the site, decoded', () => {
    expect(parsePublishedUrl('http://r.test/acme/docs/~share/bshare_a%2Bb/guide/x', { readerUrl: 'http://r.test' })).toMatchObject({
      site: { organization: 'acme', basename: 'docs' },
      shareKey: 'bshare_a+b',
      segments: ['guide', 'x'],
    });
    expect(parsePublishedUrl('https://docs.example.com/~share/k', { readerUrl: 'http://r.test' })).toEqual({ site: { hostname: 'docs.example.com' }, shareKey: 'k', segments: [] });
    // deeper down it is a page path like any other
    expect(parsePublishedUrl('http://r.test/acme/docs/guide/~share/k', { readerUrl: 'http://r.test' })?.shareKey).toBeUndefined();
  });

  it("reads the earlier form's share key right below the basename, or one segment further where the reader puts a cookie's key", () => {
    expect(parsePublishedUrl('http://r.test/docs/~share/k/guide', { readerUrl: 'http://r.test' })?.legacy).toEqual({ basename: 'docs', shareKey: 'k', segments: ['guide'] });
    expect(parsePublishedUrl('http://r.test/docs/guide/~share/k/x', { readerUrl: 'http://r.test' })?.legacy).toEqual({ basename: 'docs', shareKey: 'k', segments: ['guide', 'x'] });
  });

  it('answers nothing for what is not an http(s) URL, the reader root, or a key that is not percent-encoding', () => {
    for (const url of ['docs', 'ftp://r.test/docs', 'javascript:alert(1)', 'http://r.test/', 'http://r.test/acme/docs/~share/%E0%A4%A/x'])
      expect(parsePublishedUrl(url, { readerUrl: 'http://r.test' })).toBeUndefined();
    expect(decodeSegments(['a%20b', 'c'])).toEqual(['a b', 'c']);
    expect(decodeSegments(['%zz'])).toBeUndefined();
  });
});

describe('locateInSite', () => {
  const nobody = conditionVisitor(undefined, undefined);
  const pro = conditionVisitor({ plan: 'pro' }, undefined);

  it('in a site without sections: the default site space at the root, others by path, the rest the page path', () => {
    const s: ShownStructure = { site: { defaultSiteSpaceId: 'a' }, sections: [], siteSpaces: [siteSpace('a', 'v2'), siteSpace('b', 'v1', { order: 1 })] };
    expect(locateInSite(s, [], nobody)).toMatchObject({ siteSpace: { _id: 'a' }, consumed: 0 });
    expect(locateInSite(s, ['v1', 'x'], nobody)).toMatchObject({ siteSpace: { _id: 'b' }, consumed: 1 });
    expect(locateInSite(s, ['v2', 'x'], nobody)).toMatchObject({ siteSpace: { _id: 'a' }, consumed: 0 });
    expect(locateInSite({ ...s, site: {} }, [], nobody)).toBeUndefined();
    expect(locateInSite({ ...s, siteSpaces: [siteSpace('a', 'v2', { spaceDeletedAt: T })] }, [], nobody)).toBeUndefined();
  });

  it('with sections: the default at the root, the others by path; a failing condition is as if absent, never replaced', () => {
    const s: ShownStructure = {
      site: { defaultSectionId: 'docs' },
      sections: [section('docs', 'docs', { defaultSiteSpaceId: 'd1' }), section('api', 'api', { defaultSiteSpaceId: 'a1', condition: "visitor.claims.plan === 'pro'" })],
      siteSpaces: [
        siteSpace('d1', 'v1', { sectionId: 'docs' }),
        siteSpace('d2', 'v2', { sectionId: 'docs', condition: 'visitor.claims.unsigned.beta' }),
        siteSpace('a1', 'rest', { sectionId: 'api' }),
      ],
    };
    expect(locateInSite(s, ['api', 'x'], pro)).toMatchObject({ section: { _id: 'api' }, siteSpace: { _id: 'a1' }, consumed: 1 });
    expect(locateInSite(s, ['api', 'x'], nobody)).toMatchObject({ section: { _id: 'docs' }, siteSpace: { _id: 'd1' }, consumed: 0 });
    expect(locateInSite(s, ['v2'], nobody)).toMatchObject({ siteSpace: { _id: 'd1' }, consumed: 0 });
    expect(locateInSite(s, ['v2'], conditionVisitor(undefined, { beta: true }))).toMatchObject({ siteSpace: { _id: 'd2' }, consumed: 1 });
    expect(locateInSite(s, ['docs'], nobody)).toMatchObject({ section: { _id: 'docs' }, consumed: 0 });
    const closedDefault = { ...s, sections: [section('docs', 'docs', { defaultSiteSpaceId: 'd1', condition: 'false' }), s.sections[1]] };
    expect(locateInSite(closedDefault, [], pro)).toBeUndefined();
    expect(locateInSite(closedDefault, ['api'], pro)).toMatchObject({ siteSpace: { _id: 'a1' } });
  });

  it("the audience's spaces: shown site spaces whose condition and section's condition hold", () => {
    const s = {
      sections: [section('docs', 'docs'), section('api', 'api', { condition: "visitor.claims.plan === 'pro'" })],
      siteSpaces: [
        siteSpace('d1', 'v1', { sectionId: 'docs', spaceId: 'x' }),
        siteSpace('d2', 'v2', { sectionId: 'docs', spaceId: 'y', condition: 'visitor.claims.unsigned.beta' }),
        siteSpace('d3', 'v3', { sectionId: 'docs', spaceId: 'x' }),
        siteSpace('a1', 'rest', { sectionId: 'api', spaceId: 'z' }),
        siteSpace('gone', 'g', { sectionId: 'docs', spaceId: 'w', spaceDeletedAt: T }),
        siteSpace('broken', 'b', { sectionId: 'docs', spaceId: 'v', condition: 'visitor.(' }),
      ],
    };
    expect(audienceSpaceIds(s, conditionVisitor(undefined, undefined))).toEqual(['x']);
    expect(audienceSpaceIds(s, conditionVisitor({ plan: 'pro' }, { beta: true }))).toEqual(['x', 'y', 'z']);
    // unsigned claims are not signed ones
    expect(audienceSpaceIds(s, conditionVisitor(undefined, { plan: 'pro' }))).toEqual(['x']);
  });
});
