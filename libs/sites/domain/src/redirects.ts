import { invalid } from '@bindery/platform/errors';

/**
 * Site redirects (the 0.202.0 SiteRedirect): a source path within the site sends its visitors to a
 * destination. Rules:
 * - a source is the official SiteRedirectSourcePath: `/`-separated segments of URL-safe or
 *   percent-encoded characters, at most 512 characters, optionally ending in `*` (a wildcard:
 *   `/guides/*` or `/guides*`); it is unique per site and draft flag (a unique index);
 * - a path matches the redirect with exactly its source first, else the wildcard source with the
 *   longest prefix of it; `/guides/*` also takes `/guides` itself;
 * - with `captureWildcard`, what the wildcard matched is appended to the destination's URL
 *   (`/old/*` → `https://example.com/new`: `/old/a/b` goes to `https://example.com/new/a/b`);
 * - destinations are a site section, a site space, a page of a site space, or an external http(s)
 *   URL; a request may also name a page by its space and path (`kind: "path"`), which is stored as
 *   the page of the site's site space of that space.
 */
export interface RedirectRecord {
  _id: string;
  organizationId: string;
  siteId: string;
  source: string;
  destination: RedirectDestination;
  captureWildcard: boolean;
  /** a draft redirect is not live: lookups by source do not see it */
  draft: boolean;
  permanent: boolean;
  createdAt: string;
  /** equal to createdAt until the first update (then the official `updatedAt` is shown) */
  updatedAt: string;
}

export type RedirectDestination =
  | { kind: 'site-section'; siteSectionId: string }
  | { kind: 'site-space'; siteSpaceId: string }
  | { kind: 'site-page'; siteSpaceId: string; pageId: string }
  | { kind: 'external'; url: string };

/** What a create request may name: a stored destination, or a page by its space and path. */
export type RedirectInputDestination = RedirectDestination | { kind: 'path'; spaceId: string; path: string };

/** The official SiteRedirectSourcePath. */
export const REDIRECT_SOURCE_PATTERN = '^\\/(?!\\*)(?!.*\\*.+)(?:[A-Za-z0-9\\-._~+]|%[0-9A-Fa-f]{2})+(?:\\/(?:[A-Za-z0-9\\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\\/\\*|\\*)?$';
export const REDIRECT_SOURCE_MAX = 512;
const SOURCE = new RegExp(REDIRECT_SOURCE_PATTERN);

/** The orders a list of redirects takes (the official SiteRedirectOrderBy). */
export const REDIRECT_ORDERS = ['createdAt', 'updatedAt', 'source'] as const;
export type RedirectOrder = (typeof REDIRECT_ORDERS)[number];

export function assertRedirectSource(source: string, what = 'source'): void {
  if (source.length > REDIRECT_SOURCE_MAX || !SOURCE.test(source)) {
    throw invalid(
      `${what} must be a path such as /guides/setup (segments of URL-safe or percent-encoded characters, at most ${REDIRECT_SOURCE_MAX}), optionally ending in * or /*.`,
    );
  }
}

export const isWildcard = (source: string) => source.endsWith('*');

/**
 * Every source that could match `path`: the path itself, then each wildcard source made of a prefix
 * of it (longest first), and `<path>/*` (a directory's wildcard takes the directory itself).
 */
export function candidateSources(path: string): string[] {
  const out = [path];
  if (!isWildcard(path)) {
    out.push(`${path}/*`);
    for (let end = path.length; end >= 2; end -= 1) out.push(`${path.slice(0, end)}*`);
  }
  return out.filter((s) => s.length <= REDIRECT_SOURCE_MAX);
}

/** What a wildcard source matched of `path` ('' for an exact match). */
export function capturedSuffix(source: string, path: string): string {
  if (!isWildcard(source) || source === path) return '';
  const prefix = source.slice(0, -1);
  if (path.startsWith(prefix)) return path.slice(prefix.length);
  // `/dir/*` taking `/dir` itself
  return '';
}

/** The redirect that `path` goes through among those whose source may match: the exact one, else the longest wildcard prefix. */
export function matchingRedirect<R extends Pick<RedirectRecord, 'source'>>(path: string, redirects: R[]): R | undefined {
  const exact = redirects.find((r) => r.source === path);
  if (exact) return exact;
  const candidates = new Set(candidateSources(path));
  return redirects.filter((r) => isWildcard(r.source) && candidates.has(r.source)).sort((a, b) => b.source.length - a.source.length)[0];
}

/** `url` with `suffix` appended to its path (before any query or fragment); a `/*` source joins them with one slash. */
export function appendSuffix(url: string, suffix: string, source: string): string {
  if (!suffix) return url;
  const cut = url.search(/[?#]/);
  const [path, rest] = cut < 0 ? [url, ''] : [url.slice(0, cut), url.slice(cut)];
  const joined = source.endsWith('/*') ? `${path.replace(/\/+$/, '')}/${suffix.replace(/^\/+/, '')}` : `${path}${suffix}`;
  return `${joined}${rest}`;
}

const ID = /^[A-Za-z0-9_-]{1,128}$/;

/** A destination as a request names it (the RedirectDestination message): `kind` and the fields it takes. */
export interface DestinationInput {
  kind: string;
  siteSectionId?: string;
  siteSpaceId?: string;
  pageId?: string;
  url?: string;
  spaceId?: string;
  path?: string;
}
type DestinationField = Exclude<keyof DestinationInput, 'kind'>;
const FIELDS: DestinationField[] = ['siteSectionId', 'siteSpaceId', 'pageId', 'url', 'spaceId', 'path'];

function id(d: DestinationInput, field: DestinationField): string {
  const v = d[field];
  if (typeof v !== 'string' || !ID.test(v)) throw invalid(`destination.${field} must be an id.`);
  return v;
}

function onlyFields(d: DestinationInput, fields: DestinationField[]): void {
  const extra = FIELDS.filter((k) => d[k] !== undefined && !fields.includes(k));
  if (extra.length) throw invalid(`destination has fields its kind does not take: ${extra.join(', ')}.`);
}

/** An external destination: an absolute http(s) URL of at most 2048 characters (no script or data URLs). */
export function assertExternalUrl(url: unknown): string {
  let parsed: URL | undefined;
  try {
    parsed = typeof url === 'string' && url.length <= 2048 ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed || !['http:', 'https:'].includes(parsed.protocol)) throw invalid('destination.url must be an absolute http or https URL of at most 2048 characters.');
  return url as string;
}

/**
 * A destination as a request names it (the official shapes), checked; `path` destinations only
 * where `allowPath` (creates). The gateway validates the same shapes; this keeps the service's own rule.
 */
export function destinationOf(d: DestinationInput | undefined, allowPath: boolean): RedirectInputDestination {
  if (!d) throw invalid('destination must be an object.');
  switch (d.kind) {
    case 'site-section':
      onlyFields(d, ['siteSectionId']);
      return { kind: 'site-section', siteSectionId: id(d, 'siteSectionId') };
    case 'site-space':
      onlyFields(d, ['siteSpaceId']);
      return { kind: 'site-space', siteSpaceId: id(d, 'siteSpaceId') };
    case 'site-page':
      onlyFields(d, ['siteSpaceId', 'pageId']);
      return { kind: 'site-page', siteSpaceId: id(d, 'siteSpaceId'), pageId: id(d, 'pageId') };
    case 'external':
      onlyFields(d, ['url']);
      return { kind: 'external', url: assertExternalUrl(d.url) };
    case 'path':
      if (!allowPath) break;
      onlyFields(d, ['spaceId', 'path']);
      if (typeof d.path !== 'string' || d.path.length > 2048) throw invalid('destination.path must be the path of a page in the space.');
      return { kind: 'path', spaceId: id(d, 'spaceId'), path: d.path };
  }
  throw invalid(`destination.kind must be one of site-section, site-space, site-page, external${allowPath ? ', path' : ''}.`);
}

/** The official SiteRedirect. */
export function redirectJson(r: RedirectRecord) {
  return {
    object: 'site-redirect' as const,
    id: r._id,
    source: r.source,
    draft: r.draft,
    captureWildcard: r.captureWildcard,
    permanent: r.permanent,
    destination: r.destination,
    createdAt: r.createdAt,
    ...(r.updatedAt !== r.createdAt ? { updatedAt: r.updatedAt } : {}),
  };
}
