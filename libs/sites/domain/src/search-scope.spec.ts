import { parseSearchScope, ScopeStructure, scopeSpaceIds } from './search-scope';

describe('site search scopes', () => {
  const withSections: ScopeStructure = {
    sections: [{ _id: 'secA', defaultSiteSpaceId: 'ss2' }, { _id: 'secB', defaultSiteSpaceId: 'gone' }, { _id: 'secC' }],
    siteSpaces: [
      { _id: 'ss4', sectionId: 'secB', spaceId: 'sp1', order: 1 },
      { _id: 'ss3', sectionId: 'secB', spaceId: 'sp3', order: 0 },
      { _id: 'ss2', sectionId: 'secA', spaceId: 'sp2', order: 1 },
      { _id: 'ss1', sectionId: 'secA', spaceId: 'sp1', order: 0 },
    ],
  };
  const flat: ScopeStructure = {
    sections: [],
    defaultSiteSpaceId: 'r2',
    siteSpaces: [
      { _id: 'r1', spaceId: 'sp1', order: 0 },
      { _id: 'r2', spaceId: 'sp2', order: 1 },
    ],
  };
  const spaces = (scope: object, s: ScopeStructure) => scopeSpaceIds(parseSearchScope(JSON.stringify(scope)), s);

  it('default: each section’s default site space (its first when the default is not shown), plus the included ones', () => {
    expect(spaces({ mode: 'default' }, withSections)).toEqual(['sp2', 'sp3']);
    expect(spaces({ mode: 'default', includedSiteSpaces: ['ss4', 'elsewhere'] }, withSections)).toEqual(['sp2', 'sp3', 'sp1']);
    expect(spaces({ mode: 'default' }, flat)).toEqual(['sp2']);
    expect(spaces({ mode: 'default' }, { ...flat, defaultSiteSpaceId: undefined })).toEqual(['sp1']);
    expect(spaces({ mode: 'default' }, { sections: [], siteSpaces: [] })).toEqual([]);
  });

  it('specific, all and current', () => {
    expect(spaces({ mode: 'specific', siteSpaceIds: ['ss3', 'not-of-this-site'] }, withSections)).toEqual(['sp3']);
    expect(spaces({ mode: 'all' }, withSections)).toEqual(['sp1', 'sp2', 'sp3']);
    expect(spaces({ mode: 'current', siteSpaceId: 'ss1' }, withSections)).toEqual(['sp1', 'sp2', 'sp3']);
    expect(spaces({ mode: 'current', siteSpaceId: 'r1' }, flat)).toEqual(['sp1', 'sp2']);
  });

  it('refuses what is not a scope', () => {
    expect(() => parseSearchScope('[]')).toThrow(/scope must be an object/);
    expect(() => parseSearchScope('{"mode":"everything"}')).toThrow(/scope.mode must be one of/);
    expect(() => parseSearchScope('{"mode":"specific","siteSpaceIds":[]}')).toThrow(/at least one/);
    expect(() => parseSearchScope('{"mode":"specific","siteSpaceIds":[1]}')).toThrow(/list of at most 1000/);
    expect(() => parseSearchScope('{"mode":"current"}')).toThrow(/current site space/);
    expect(parseSearchScope('')).toEqual({ mode: 'default', includedSiteSpaces: [] });
  });
});
