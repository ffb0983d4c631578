import type { SiteRecord } from './site-records';

/**
 * Where the reader serves a site, and where a share link leads (docs/sites.md):
 * - a site with a custom hostname: `https://<hostname>`; otherwise `<readerUrl>/<basename>`;
 * - a share link: `<site URL>/~share/<key>`, then the path within the site. `~` never begins a
 *   basename, a section path or a site-space path, so the segment cannot be taken for content.
 */
export const SHARE_LINK_SEGMENT = '~share';

/** The prefix of every share-link key (a 256-bit secret after it): recognisable to secret scanners. */
export const SHARE_KEY_PREFIX = 'bshare';

export function siteUrlOf(site: Pick<SiteRecord, 'basename' | 'hostname'>, readerUrl: string): string {
  return site.hostname ? `https://${site.hostname}` : `${readerUrl.replace(/\/+$/, '')}/${site.basename}`;
}

/** The site's URL while it is published; undefined while it is not. */
export function publishedUrlOf(site: Pick<SiteRecord, 'basename' | 'hostname' | 'published'>, readerUrl: string): string | undefined {
  return site.published ? siteUrlOf(site, readerUrl) : undefined;
}

/** The URL a share link hands out: the site's URL with the share segment and the key. */
export function shareLinkUrl(siteUrl: string, key: string): string {
  return `${siteUrl.replace(/\/+$/, '')}/${SHARE_LINK_SEGMENT}/${encodeURIComponent(key)}`;
}

/**
 * The share key at the start of a path below a site's URL (`/~share/<key>/rest…` or without the
 * leading slash), with the rest of the path ('' when none); undefined when the path carries none.
 */
export function shareKeyInPath(pathBelowSite: string): { key: string; rest: string } | undefined {
  const m = /^\/?~share\/([^/?#]+)(\/[^?#]*)?/.exec(pathBelowSite);
  if (!m) return undefined;
  let key: string;
  try {
    key = decodeURIComponent(m[1]);
  } catch {
    return undefined;
  }
  return { key, rest: (m[2] ?? '').replace(/^\/+/, '') };
}
