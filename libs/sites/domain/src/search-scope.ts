import { invalid } from '@bindery/platform/errors';

/**
 * What a site's search covers (the official SiteSearchScope, and the deprecated `mode` forms of the
 * request, which the gateway hands over as the same object):
 * - `default`: the default content of every section (the root's default site space in a site
 *   without sections), plus `includedSiteSpaces` and `currentSiteSpace` (0.202.0: the visitor's site
 *   space, always searched); with `restrictTo` (0.202.0, needs `currentSiteSpace`),
 *   `currentSiteSpace` searches only that site space and `otherSiteSpaces` the rest of the default
 *   scope without it. Site spaces have no language here, so none is matched to the current one's;
 * - `specific`: only `siteSpaceIds`;
 * - `all`: every shown site space;
 * - `current` (deprecated form): `siteSpaceId` and the default content of every section.
 * Site spaces that are not shown site spaces of the site are left out (a reader's page may name one
 * removed since).
 */
export type RestrictTo = 'currentSiteSpace' | 'otherSiteSpaces';
export type SearchScope =
  | { mode: 'default'; includedSiteSpaces: string[]; currentSiteSpace?: string; restrictTo?: RestrictTo }
  | { mode: 'specific'; siteSpaceIds: string[] }
  | { mode: 'all' }
  | { mode: 'current'; siteSpaceId: string };

/** A scope as sites receives it (the SiteSearchScope message): lists empty when not given, `mode` empty for the default. */
export interface SearchScopeInput {
  mode: string;
  includedSiteSpaces: string[];
  siteSpaceIds: string[];
  siteSpaceId?: string;
  currentSiteSpace?: string;
  /** '' (or absent) for the whole default scope */
  restrictTo?: string;
}

const ids = (v: string[], field: string): string[] => {
  if (v.length > 1000) throw invalid(`scope.${field} must be a list of at most 1000 site space ids.`);
  return v;
};

/** The scope asked for (none: the default); invalid for one that names no mode sites knows, or lacks what its mode needs. */
export function searchScopeOf(input: SearchScopeInput | undefined): SearchScope {
  const s = input ?? { mode: 'default', includedSiteSpaces: [], siteSpaceIds: [] };
  switch (s.mode || 'default') {
    case 'default': {
      const includedSiteSpaces = ids(s.includedSiteSpaces, 'includedSiteSpaces');
      const current = s.currentSiteSpace ? { currentSiteSpace: s.currentSiteSpace } : {};
      if (!s.restrictTo) return { mode: 'default', includedSiteSpaces, ...current };
      if (s.restrictTo !== 'currentSiteSpace' && s.restrictTo !== 'otherSiteSpaces') throw invalid('scope.restrictTo must be currentSiteSpace or otherSiteSpaces.');
      if (!s.currentSiteSpace) throw invalid('scope.restrictTo needs scope.currentSiteSpace.');
      return { mode: 'default', includedSiteSpaces, currentSiteSpace: s.currentSiteSpace, restrictTo: s.restrictTo };
    }
    case 'specific': {
      const siteSpaceIds = ids(s.siteSpaceIds, 'siteSpaceIds');
      if (!siteSpaceIds.length) throw invalid('scope.siteSpaceIds must name at least one site space.');
      return { mode: 'specific', siteSpaceIds };
    }
    case 'all':
      return { mode: 'all' };
    case 'current':
      if (typeof s.siteSpaceId !== 'string' || !s.siteSpaceId) throw invalid('siteSpaceId must name the current site space.');
      return { mode: 'current', siteSpaceId: s.siteSpaceId };
  }
  throw invalid('scope.mode must be one of default, specific, all.');
}

/** A site's structure as far as a search scope needs it. */
export interface ScopeStructure {
  /** the site's shown site spaces */
  siteSpaces: ReadonlyArray<{ _id: string; sectionId?: string; spaceId: string; order?: number }>;
  /** the site's sections, in order */
  sections: ReadonlyArray<{ _id: string; defaultSiteSpaceId?: string }>;
  /** the root's default site space (a site without sections) */
  defaultSiteSpaceId?: string;
}

/** The default content: each section's default site space (else its first), or the root's default (else the first). */
function defaults(s: ScopeStructure): string[] {
  const shown = new Set(s.siteSpaces.map((ss) => ss._id));
  const firstOf = (sectionId: string | undefined) => s.siteSpaces.find((ss) => ss.sectionId === sectionId)?._id;
  if (!s.sections.length) {
    const root = s.defaultSiteSpaceId && shown.has(s.defaultSiteSpaceId) ? s.defaultSiteSpaceId : firstOf(undefined);
    return root ? [root] : [];
  }
  return s.sections.flatMap((section) => {
    const d = section.defaultSiteSpaceId && shown.has(section.defaultSiteSpaceId) ? section.defaultSiteSpaceId : firstOf(section._id);
    return d ? [d] : [];
  });
}

/** The site spaces in the site's order: by their section's position (the root's first), then their own. */
function inSiteOrder(s: ScopeStructure): ScopeStructure['siteSpaces'] {
  const position = new Map(s.sections.map((section, i) => [section._id, i]));
  const rank = (sectionId: string | undefined) => (sectionId === undefined ? -1 : (position.get(sectionId) ?? s.sections.length));
  return [...s.siteSpaces].sort((a, b) => rank(a.sectionId) - rank(b.sectionId) || (a.order ?? 0) - (b.order ?? 0));
}

/** The ids of the spaces a scope searches, without repeats, in the site's order. */
export function scopeSpaceIds(scope: SearchScope, structure: ScopeStructure): string[] {
  const s = { ...structure, siteSpaces: inSiteOrder(structure) };
  let wanted: Set<string>;
  switch (scope.mode) {
    case 'default': {
      const current = scope.currentSiteSpace;
      wanted = new Set([...defaults(s), ...scope.includedSiteSpaces, ...(current ? [current] : [])]);
      if (scope.restrictTo === 'currentSiteSpace') wanted = new Set([current!]);
      if (scope.restrictTo === 'otherSiteSpaces') wanted.delete(current!);
      break;
    }
    case 'specific':
      wanted = new Set(scope.siteSpaceIds);
      break;
    case 'all':
      wanted = new Set(s.siteSpaces.map((ss) => ss._id));
      break;
    case 'current':
      wanted = new Set([scope.siteSpaceId, ...defaults(s)]);
      break;
  }
  return [...new Set(s.siteSpaces.filter((ss) => wanted.has(ss._id)).map((ss) => ss.spaceId))];
}
