import { createHash } from 'node:crypto';
import type { RedirectRecord } from './redirects';
import { SiteAddresses, siteSpaceUrl } from './site-urls';

/**
 * A space's Git redirects (docs/sites.md, "Git redirects"): the `.gitbook.yaml` redirects of the
 * space's last Git import, as git-sync resolved them, stored once per space (not per site), so that
 * every site publishing the space, including one created or given the space later, answers them:
 * - a source is a path below the space's published URL (`/old/path`); below a site it is prefixed
 *   by the site space's own path (its section's and its own, each left out where it is a default);
 * - a site's own (hand-written) redirect with exactly that source wins; a Git redirect wins over a
 *   hand-written wildcard (an exact source before a wildcard, as among hand-written ones);
 * - among site spaces, the one with the longest path prefix is asked first;
 * - the target is the page's URL in that site space now (it follows renames and moves), with the
 *   anchor of `file.md#anchor`, or the external URL.
 */
export interface GitRedirectEntry {
  source: string;
  pageId?: string;
  anchor?: string;
  url?: string;
}

export interface GitRedirectsRecord {
  /** the space's id: one record per space */
  _id: string;
  organizationId: string;
  /** the commit and revision of the import they came from */
  commit: string;
  revisionId: string;
  redirects: GitRedirectEntry[];
  /** the time of the completed-sync event that set them (an older event, delivered late, is ignored) */
  at: string;
  updatedAt: string;
}

/** Where a path below a site may fall: a shown site space whose path prefixes it, and the rest of it below that site space. */
export interface GitRedirectPlace {
  siteSpaceId: string;
  spaceId: string;
  rest: string;
}

/** The site spaces a path below the site (`/a/b`, percent-encoded) may be in, the longest path prefix first. */
export function gitRedirectPlaces(a: Pick<SiteAddresses, 'defaultSectionId' | 'defaultSiteSpaceId' | 'sections' | 'siteSpaces'>, path: string): GitRedirectPlace[] {
  const out: (GitRedirectPlace & { prefix: number })[] = [];
  for (const [siteSpaceId, ss] of a.siteSpaces) {
    const prefix = siteSpaceUrl({ ...a, siteUrl: '' }, siteSpaceId);
    if (prefix === undefined || !path.startsWith(`${prefix}/`) || path.length <= prefix.length + 1) continue;
    out.push({ siteSpaceId, spaceId: ss.spaceId, rest: path.slice(prefix.length), prefix: prefix.length });
  }
  return out.sort((x, y) => y.prefix - x.prefix).map(({ siteSpaceId, spaceId, rest }) => ({ siteSpaceId, spaceId, rest }));
}

/** The Git redirect the path goes through: in the first place (longest prefix) whose space has one with that source. */
export function matchGitRedirect(places: GitRedirectPlace[], records: ReadonlyArray<Pick<GitRedirectsRecord, '_id' | 'redirects' | 'updatedAt'>>) {
  const bySpace = new Map(records.map((r) => [r._id, r]));
  for (const place of places) {
    const record = bySpace.get(place.spaceId);
    const entry = record?.redirects.find((r) => r.source === place.rest);
    if (record && entry) return { place, entry, at: record.updatedAt };
  }
  return undefined;
}

/**
 * A matched Git redirect in the shape of a site's redirect (the official SiteRedirect), for the
 * lookup's answer: live, permanent, never a wildcard; its id is derived from the site space and the
 * source (no document of the site's redirects holds it: it cannot be changed through the site).
 */
export function gitRedirectAsSiteRedirect(
  site: { organizationId: string; _id: string },
  source: string,
  match: { place: GitRedirectPlace; entry: GitRedirectEntry; at: string },
): RedirectRecord {
  const id = `git-${createHash('sha256').update(`${match.place.siteSpaceId}\0${match.entry.source}`).digest('base64url').slice(0, 20)}`;
  return {
    _id: id,
    organizationId: site.organizationId,
    siteId: site._id,
    source,
    destination: match.entry.url ? { kind: 'external', url: match.entry.url } : { kind: 'site-page', siteSpaceId: match.place.siteSpaceId, pageId: match.entry.pageId ?? '' },
    captureWildcard: false,
    draft: false,
    permanent: true,
    createdAt: match.at,
    updatedAt: match.at,
  };
}

/** `url` with the entry's anchor as its fragment (encoded where it is not already URL-safe). */
export function withAnchor(url: string, anchor: string | undefined): string {
  if (!anchor) return url;
  return `${url.replace(/#.*$/, '')}#${/^[A-Za-z0-9\-._~%]+$/.test(anchor) ? anchor : encodeURIComponent(anchor)}`;
}
