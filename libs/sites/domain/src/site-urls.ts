import type { SectionRecord, SiteRecord, SiteSpaceRecord } from './site-records';

/**
 * Where the reader serves a site and what is in it, and where a share link leads (docs/sites.md):
 * - an organization's sites live under its own URL: `<readerUrl>/<organization>` (its hostname, or
 *   its id while it has none), or `<scheme>://<hostname>.<readerDomain>` when the instance has a
 *   reader domain and the organization a hostname (as `<org>.gitbook.io`);
 * - a site with a custom hostname: `https://<hostname>`; otherwise `<organization URL>/<basename>`;
 * - below it, a section at its path unless it is the default section, then a site space at its path
 *   unless it is the default of its section (or of the root), then a page's path;
 * - a share link: `<site URL>/~share/<key>`, then the path within the site. `~` never begins a
 *   basename, a section path or a site-space path, so the segment cannot be taken for content.
 */
export const SHARE_LINK_SEGMENT = '~share';

/** The prefix of every share-link key (a 256-bit secret after it): recognisable to secret scanners. */
export const SHARE_KEY_PREFIX = 'bshare';

/** Where the reader is reached: its public URL and, optionally, the domain below which each organization has a host. */
export interface ReaderAddress {
  readerUrl: string;
  /** `docs.example.com` (a port may follow): organization `acme` is at `<scheme>://acme.docs.example.com` */
  readerDomain?: string;
}

/** An organization as its published URLs name it: its hostname when it has one, else its id. */
export interface OrganizationAddress {
  id: string;
  hostname?: string;
}

/** The URL an organization's sites live under, without a trailing slash. */
export function organizationUrlOf(reader: ReaderAddress, org: OrganizationAddress): string {
  const readerUrl = reader.readerUrl.replace(/\/+$/, '');
  if (reader.readerDomain && org.hostname) return `${new URL(readerUrl).protocol}//${org.hostname}.${reader.readerDomain}`;
  return `${readerUrl}/${encodeURIComponent(org.hostname ?? org.id)}`;
}

/** A site's URL: `https://<hostname>` when it has one, else `<organization URL>/<basename>`. */
export function siteUrlOf(site: Pick<SiteRecord, 'basename' | 'hostname'>, organizationUrl: string): string {
  return site.hostname ? `https://${site.hostname}` : `${organizationUrl.replace(/\/+$/, '')}/${site.basename}`;
}

/** The site's URL while it is published; undefined while it is not. */
export function publishedUrlOf(site: Pick<SiteRecord, 'basename' | 'hostname' | 'published'>, organizationUrl: string): string | undefined {
  return site.published ? siteUrlOf(site, organizationUrl) : undefined;
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

/** What the URLs below a site depend on: its defaults and its sections' paths and defaults. */
export interface SiteDefaults {
  defaultSectionId?: string;
  /** the root's default site space (a site without sections) */
  defaultSiteSpaceId?: string;
  sections: ReadonlyMap<string, Pick<SectionRecord, 'path' | 'defaultSiteSpaceId'>>;
}

/** The URLs of a site's sections and site spaces start at `siteUrl` ('' gives paths below the site). */
export interface SiteAddressing extends SiteDefaults {
  siteUrl: string;
}

/** A site's addressing with its site spaces by id, for what names them by id (redirect destinations). */
export interface SiteAddresses extends SiteAddressing {
  siteSpaces: ReadonlyMap<string, Pick<SiteSpaceRecord, 'path' | 'sectionId' | 'spaceId'>>;
}

const segment = (path: string) => `/${encodeURIComponent(path)}`;

/** Whether the site space is the default of its section (or of the root). */
export function isDefaultSiteSpace(d: SiteDefaults, ss: Pick<SiteSpaceRecord, '_id' | 'sectionId'>): boolean {
  return ss.sectionId ? d.sections.get(ss.sectionId)?.defaultSiteSpaceId === ss._id : d.defaultSiteSpaceId === ss._id;
}

/** A section's URL: the site's, then the section's path unless it is the default section. */
export function sectionUrlOf(a: SiteAddressing, section: Pick<SectionRecord, '_id' | 'path'>): string {
  return section._id === a.defaultSectionId ? a.siteUrl : `${a.siteUrl}${segment(section.path)}`;
}

/** A site space's URL: its section's (or the site's), then its path unless it is the default there; undefined when its section is not the site's. */
export function siteSpaceUrlOf(a: SiteAddressing, ss: Pick<SiteSpaceRecord, '_id' | 'sectionId' | 'path'>): string | undefined {
  let base = a.siteUrl;
  if (ss.sectionId) {
    const section = a.sections.get(ss.sectionId);
    if (!section) return undefined;
    base = sectionUrlOf(a, { _id: ss.sectionId, path: section.path });
  }
  return isDefaultSiteSpace(a, ss) ? base : `${base}${segment(ss.path)}`;
}

/** The URL of the site's section of that id; undefined when it has none. */
export function sectionUrl(a: SiteAddressing, sectionId: string): string | undefined {
  const section = a.sections.get(sectionId);
  return section ? sectionUrlOf(a, { _id: sectionId, path: section.path }) : undefined;
}

/** The URL of the site's site space of that id; undefined when it has none. */
export function siteSpaceUrl(a: SiteAddresses, siteSpaceId: string): string | undefined {
  const ss = a.siteSpaces.get(siteSpaceId);
  return ss ? siteSpaceUrlOf(a, { _id: siteSpaceId, sectionId: ss.sectionId, path: ss.path }) : undefined;
}

/** A page's URL below its site space's (the page path's segments each encoded). */
export function pageUrl(siteSpaceBase: string, pagePath: string): string {
  const path = pagePath.split('/').filter(Boolean).map(encodeURIComponent).join('/');
  return path ? `${siteSpaceBase}/${path}` : siteSpaceBase;
}
