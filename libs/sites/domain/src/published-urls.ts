import { evaluateCondition, parseCondition, type ConditionVisitor } from './conditions';
import type { SectionRecord, SiteRecord, SiteSpaceRecord } from './site-records';
import { SHARE_LINK_SEGMENT } from './site-urls';

/**
 * Reading a published URL (docs/published-sites.md): which site it names, the share key it carries,
 * and which section, site space and page path of the site it shows to a visitor.
 *
 * - `<readerUrl>/<organization>/<basename>/…` names the site of that basename in the organization
 *   of that hostname or id; `<scheme>://<organization>.<readerDomain>/<basename>/…` the same when the
 *   instance has a reader domain; any other host names the site of that hostname
 *   (`https://<hostname>/…`);
 * - on the reader's host, the same URL is also read in the form of earlier versions,
 *   `<readerUrl>/<basename>/…`, for the resolver to send it on to where the site is now;
 * - right below the site, `~share/<key>` carries a share key;
 * - then a section's path (not the default section's: it sits at the site's root), else the
 *   default section; then a site space's path within it (not the default's), else its default;
 *   whatever is left is the page path;
 * - a section or site space whose condition fails for the visitor is as if it were not there.
 */
export type SiteLocator =
  /** `form`: under the reader's URL (`path`) or at the organization's host below the reader domain (`host`) */
  { organization: string; basename: string; form: 'path' | 'host'; hostname?: undefined } | { hostname: string; organization?: undefined; basename?: undefined };

/** What is below a site: the share key of a `~share/<key>` segment right below it (decoded), and the rest. */
export interface BelowSite {
  shareKey?: string;
  /** the path segments below the site (and its share segment), still percent-encoded */
  segments: string[];
}

export interface PublishedUrl extends BelowSite {
  site: SiteLocator;
  /** on the reader's host: the URL read as `<readerUrl>/<basename>/…`, the form of earlier versions */
  legacy?: BelowSite & { basename: string };
}

const segmentsOf = (pathname: string) => pathname.split('/').filter(Boolean);

/** The share segment right below the site, if any, and the rest; undefined when the key is not valid percent-encoding. */
function belowSite(below: string[], shareAt = 0): BelowSite | undefined {
  if (below[shareAt] !== SHARE_LINK_SEGMENT || !below[shareAt + 1]) return { segments: below };
  let shareKey: string;
  try {
    shareKey = decodeURIComponent(below[shareAt + 1]);
  } catch {
    return undefined;
  }
  return { shareKey, segments: [...below.slice(0, shareAt), ...below.slice(shareAt + 2)] };
}

/** The organization label of a host below the reader domain (`acme.docs.example.com` → `acme`); undefined for any other host. */
function organizationLabel(host: string, readerDomain: string | undefined): string | undefined {
  if (!readerDomain) return undefined;
  const suffix = `.${readerDomain.toLowerCase()}`;
  const h = host.toLowerCase();
  if (!h.endsWith(suffix)) return undefined;
  const label = h.slice(0, -suffix.length);
  return label && !label.includes('.') ? label : undefined;
}

/**
 * The site a URL names and the segments below it; undefined for what is no http(s) URL, or a URL
 * under the reader's or at an organization's host that names no site.
 */
export function parsePublishedUrl(url: string, reader: { readerUrl: string; readerDomain?: string }): PublishedUrl | undefined {
  let u: URL;
  let readerUrl: URL;
  try {
    u = new URL(url);
    readerUrl = new URL(reader.readerUrl);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  const all = segmentsOf(u.pathname);
  const prefix = segmentsOf(readerUrl.pathname);
  // The reader's own host (either scheme: a proxy may end TLS in front of it) serves sites by organization and basename.
  if (u.host === readerUrl.host && prefix.every((p, i) => all[i] === p)) {
    const [first, second, ...rest] = all.slice(prefix.length);
    if (!first) return undefined;
    // the earlier form's share key is right below the basename, or one segment further when the
    // reader put a visitor's key after what it took for `<organization>/<basename>`
    const earlier = belowSite(
      [second, ...rest].filter((x) => x !== undefined),
      second === SHARE_LINK_SEGMENT ? 0 : 1,
    );
    const legacy = earlier && { basename: first, ...earlier };
    // one segment (or a share segment right after it): only the earlier form can name a site (no basename is empty)
    if (!second || second === SHARE_LINK_SEGMENT) return legacy && { site: { organization: first, basename: '', form: 'path' }, segments: [], legacy };
    const below = belowSite(rest);
    if (!below) return undefined;
    return { site: { organization: first, basename: second, form: 'path' }, ...below, legacy };
  }
  const label = organizationLabel(u.host, reader.readerDomain);
  if (label) {
    const [basename, ...rest] = all;
    const below = basename ? belowSite(rest) : undefined;
    return below && { site: { organization: label, basename, form: 'host' }, ...below };
  }
  const below = belowSite(all);
  return below && { site: { hostname: u.hostname.toLowerCase() }, ...below };
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
