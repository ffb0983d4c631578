import { searchScopeOf, SearchScopeInput, ScopeStructure, scopeSpaceIds } from './search-scope';

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
  const input = (scope: Partial<SearchScopeInput>): SearchScopeInput => ({ mode: '', includedSiteSpaces: [], siteSpaceIds: [], ...scope });
  const spaces = (scope: Partial<SearchScopeInput>, s: ScopeStructure) => scopeSpaceIds(searchScopeOf(input(scope)), s);

  it('default: each section’s default site space (its first when the default is not shown), plus the included ones', () => {
    expect(spaces({ mode: 'default' }, withSections)).toEqual(['sp2', 'sp3']);
    expect(spaces({ mode: 'default', includedSiteSpaces: ['ss4', 'elsewhere'] }, withSections)).toEqual(['sp2', 'sp3', 'sp1']);
    expect(spaces({ mode: 'default' }, flat)).toEqual(['sp2']);
    expect(spaces({ mode: 'default' }, { ...flat, defaultSiteSpaceId: undefined })).toEqual(['sp1']);
    expect(spaces({ mode: 'default' }, { sections: [], siteSpaces: [] })).toEqual([]);
  });

  it('default with the current site space (0.202.0): always searched; restrictTo narrows to it or to the others', () => {
    expect(spaces({ mode: 'default', currentSiteSpace: 'ss1' }, withSections)).toEqual(['sp1', 'sp2', 'sp3']);
    expect(spaces({ mode: 'default', currentSiteSpace: 'ss1', restrictTo: 'currentSiteSpace' }, withSections)).toEqual(['sp1']);
    expect(spaces({ mode: 'default', currentSiteSpace: 'ss2', restrictTo: 'currentSiteSpace' }, withSections)).toEqual(['sp2']);
    expect(spaces({ mode: 'default', currentSiteSpace: 'ss2', restrictTo: 'otherSiteSpaces' }, withSections)).toEqual(['sp3']);
    expect(spaces({ mode: 'default', currentSiteSpace: 'ss1', restrictTo: 'otherSiteSpaces', includedSiteSpaces: ['ss4'] }, withSections)).toEqual(['sp2', 'sp3', 'sp1']);
    expect(spaces({ mode: 'default', currentSiteSpace: 'r2', restrictTo: 'otherSiteSpaces' }, flat)).toEqual([]);
    expect(spaces({ mode: 'default', currentSiteSpace: 'not-of-this-site', restrictTo: 'currentSiteSpace' }, flat)).toEqual([]);
    expect(() => searchScopeOf(input({ mode: 'default', restrictTo: 'currentSiteSpace' }))).toThrow(/needs scope.currentSiteSpace/);
    expect(() => searchScopeOf(input({ mode: 'default', currentSiteSpace: 'ss1', restrictTo: 'everywhere' }))).toThrow(/currentSiteSpace or otherSiteSpaces/);
  });

  it('specific, all and current', () => {
    expect(spaces({ mode: 'specific', siteSpaceIds: ['ss3', 'not-of-this-site'] }, withSections)).toEqual(['sp3']);
    expect(spaces({ mode: 'all' }, withSections)).toEqual(['sp1', 'sp2', 'sp3']);
    expect(spaces({ mode: 'current', siteSpaceId: 'ss1' }, withSections)).toEqual(['sp1', 'sp2', 'sp3']);
    expect(spaces({ mode: 'current', siteSpaceId: 'r1' }, flat)).toEqual(['sp1', 'sp2']);
  });

  it('refuses what is not a scope', () => {
    expect(() => searchScopeOf(input({ mode: 'everything' }))).toThrow(/scope.mode must be one of/);
    expect(() => searchScopeOf(input({ mode: 'specific' }))).toThrow(/at least one/);
    expect(() => searchScopeOf(input({ mode: 'specific', siteSpaceIds: Array.from({ length: 1001 }, (_, i) => `ss${i}`) }))).toThrow(/list of at most 1000/);
    expect(() => searchScopeOf(input({ mode: 'current' }))).toThrow(/current site space/);
    expect(searchScopeOf(undefined)).toEqual({ mode: 'default', includedSiteSpaces: [] });
    expect(searchScopeOf(input({}))).toEqual({ mode: 'default', includedSiteSpaces: [] });
  });
});
