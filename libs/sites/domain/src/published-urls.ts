import { evaluateCondition, parseCondition, type ConditionVisitor } from './conditions';
import type { SectionRecord, SiteRecord, SiteSpaceRecord } from './site-records';
import { SHARE_LINK_SEGMENT } from './site-urls';

/**
 * Reading a published URL (docs/published-sites.md): which site it names, the share key it carries,
 * and which section, site space and page path of the site it shows to a visitor.
 *
 * - `<readerUrl>/<basename>/…` names the site of that basename; any other host names the site of
 *   that hostname (`https://<hostname>/…`);
 * - right below the site, `~share/<key>` carries a share key;
 * - then a section's path (not the default section's: it sits at the site's root), else the
 *   default section; then a site space's path within it (not the default's), else its default;
 *   whatever is left is the page path;
 * - a section or site space whose condition fails for the visitor is as if it were not there.
 */
export type SiteLocator = { basename: string; hostname?: undefined } | { hostname: string; basename?: undefined };

export interface PublishedUrl {
  site: SiteLocator;
  /** the share key of a `~share/<key>` segment right below the site (decoded) */
  shareKey?: string;
  /** the path segments below the site (and its share segment), still percent-encoded */
  segments: string[];
}

const segmentsOf = (pathname: string) => pathname.split('/').filter(Boolean);

/**
 * The site a URL names and the segments below it; undefined for what is no http(s) URL, or a URL
 * under the reader's that names no basename.
 */
export function parsePublishedUrl(url: string, readerUrl: string): PublishedUrl | undefined {
  let u: URL;
  let reader: URL;
  try {
    u = new URL(url);
    reader = new URL(readerUrl);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  let site: SiteLocator;
  let below: string[];
  const all = segmentsOf(u.pathname);
  const prefix = segmentsOf(reader.pathname);
  // The reader's own host (either scheme: a proxy may end TLS in front of it) serves sites by basename.
  if (u.host === reader.host && prefix.every((p, i) => all[i] === p)) {
    const basename = all[prefix.length];
    if (!basename) return undefined;
    site = { basename };
    below = all.slice(prefix.length + 1);
  } else {
    site = { hostname: u.hostname.toLowerCase() };
    below = all;
  }
  if (below[0] === SHARE_LINK_SEGMENT && below[1]) {
    let shareKey: string;
    try {
      shareKey = decodeURIComponent(below[1]);
    } catch {
      return undefined;
    }
    return { site, shareKey, segments: below.slice(2) };
  }
  return { site, segments: below };
}

/** The segments decoded; undefined when one is not valid percent-encoding. */
export function decodeSegments(segments: string[]): string[] | undefined {
  try {
    return segments.map(decodeURIComponent);
  } catch {
    return undefined;
  }
}

/** What a visitor's conditions see: signed claims at the top, unsigned ones below `unsigned`. */
export function conditionVisitor(signed: Record<string, unknown> | undefined, unsigned: Record<string, unknown> | undefined): ConditionVisitor {
  return { claims: { ...(signed ?? {}), unsigned: unsigned ?? {} } };
}

/** Whether an item's condition holds for the visitor (no condition: it always does; one that does not parse: never). */
export function conditionHolds(condition: string | undefined, visitor: ConditionVisitor): boolean {
  if (!condition) return true;
  try {
    return evaluateCondition(parseCondition(condition), visitor);
  } catch {
    return false;
  }
}

/** A site's sections and its shown site spaces (those of deleted spaces left out), with its defaults. */
export interface ShownStructure {
  site: Pick<SiteRecord, 'defaultSectionId' | 'defaultSiteSpaceId'>;
  sections: ReadonlyArray<SectionRecord>;
  siteSpaces: ReadonlyArray<SiteSpaceRecord>;
}

export interface SiteLocation {
  section?: SectionRecord;
  siteSpace: SiteSpaceRecord;
  /** how many of the segments named the section and the site space (the rest is the page path) */
  consumed: number;
}

/**
 * The section and site space the decoded segments below a site lead the visitor to, and how many
 * segments that took; undefined when none is there for the visitor (a default whose condition fails
 * is not replaced by another item: that URL shows nothing to this visitor).
 */
export function locateInSite(s: ShownStructure, segments: string[], visitor: ConditionVisitor): SiteLocation | undefined {
  let consumed = 0;
  let section: SectionRecord | undefined;
  let defaultSiteSpaceId = s.site.defaultSiteSpaceId;
  if (s.sections.length) {
    const open = s.sections.filter((x) => conditionHolds(x.condition, visitor));
    section = open.find((x) => x._id !== s.site.defaultSectionId && x.path === segments[0]);
    if (section) consumed += 1;
    else section = open.find((x) => x._id === s.site.defaultSectionId);
    if (!section) return undefined;
    defaultSiteSpaceId = section.defaultSiteSpaceId;
  }
  const sectionId = section?._id;
  const candidates = s.siteSpaces.filter((ss) => ss.sectionId === sectionId && !ss.spaceDeletedAt && conditionHolds(ss.condition, visitor));
  let siteSpace = candidates.find((ss) => ss._id !== defaultSiteSpaceId && ss.path === segments[consumed]);
  if (siteSpace) consumed += 1;
  else siteSpace = candidates.find((ss) => ss._id === defaultSiteSpaceId);
  return siteSpace ? { section, siteSpace, consumed } : undefined;
}

/**
 * The spaces a site publishes to a visitor: those of its shown site spaces whose condition holds,
 * in a section whose condition holds (or at the root), without repeats, sorted.
 */
export function audienceSpaceIds(s: Pick<ShownStructure, 'sections' | 'siteSpaces'>, visitor: ConditionVisitor): string[] {
  const openSections = new Set(s.sections.filter((x) => conditionHolds(x.condition, visitor)).map((x) => x._id));
  const ids = s.siteSpaces
    .filter((ss) => !ss.spaceDeletedAt && (ss.sectionId === undefined || openSections.has(ss.sectionId)) && conditionHolds(ss.condition, visitor))
    .map((ss) => ss.spaceId);
  return [...new Set(ids)].sort();
}
