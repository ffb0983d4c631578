import { sitesPublishedV1, sitesV1 as pb } from '@bindery/shared/contracts';
import { publishedUrlOf, RedirectRecord, SitePermissions, SiteRecord, siteUrlOf } from '@bindery/sites/domain';
import { organizationUrl } from './org-addresses';
import type { SitesDeps } from './sites-deps';
import type { Page } from '@bindery/shared/pagination';
import type { ShareLinkView } from './share-links.service';

type UrlDeps = Pick<SitesDeps, 'readerUrl' | 'readerDomain' | 'organizations'>;

/** The Site message of a record, for a caller with these permissions; `orgUrl`: where its organization's sites live. */
export function siteMessage(orgUrl: string, site: SiteRecord, permissions: SitePermissions, defaultSpace?: string): pb.Site {
  return {
    id: site._id,
    organizationId: site.organizationId,
    type: site.type,
    title: site.title,
    hostname: site.hostname,
    basename: site.basename,
    // the proxy forwards to where the reader serves the site, wherever the basename moved since
    proxy: site.proxy ? { origin: site.proxy.origin, target: siteUrlOf({ basename: site.basename }, orgUrl) } : undefined,
    visibility: site.visibility,
    published: site.published,
    siteSpaces: site.siteSpaces,
    createdAt: site.createdAt,
    updatedAt: site.updatedAt,
    adaptiveContentEnabled: site.adaptiveContent?.enabled,
    agentsContext: site.agentsContext,
    defaultSpace,
    publishedUrl: publishedUrlOf(site, orgUrl),
    previewUrl: siteUrlOf(site, orgUrl),
    permissions,
  };
}

/** Site messages of records, each with the space it shows by default. */
export async function siteMessages(deps: UrlDeps & Pick<SitesDeps, 'dependents'>, sites: SiteRecord[], permissions: SitePermissions): Promise<pb.Site[]> {
  const orgIds = [...new Set(sites.map((s) => s.organizationId))];
  const [defaults, orgUrls] = await Promise.all([deps.dependents.defaultSpaces(sites), Promise.all(orgIds.map((id) => organizationUrl(deps, id)))]);
  const urlOf = new Map(orgIds.map((id, i) => [id, orgUrls[i]]));
  return sites.map((s) => siteMessage(urlOf.get(s.organizationId)!, s, permissions, defaults.get(s._id)));
}

export async function oneSiteMessage(deps: UrlDeps & Pick<SitesDeps, 'dependents'>, site: SiteRecord, permissions: SitePermissions): Promise<pb.Site> {
  return (await siteMessages(deps, [site], permissions))[0];
}

/** The ShareLink message of a share link as its caller sees it. */
export function shareLinkMessage(v: ShareLinkView): pb.ShareLink {
  return { id: v.link._id, createdAt: v.link.createdAt, name: v.link.name, active: v.link.active, publishedUrl: v.url };
}

/** The PageInfo of a page of answers. */
export function pageInfo<T>(page: Page<T>): { count: number; nextPage?: string } {
  return { count: page.count, nextPage: page.nextPage };
}

/** The SiteRedirect message. */
export function redirectMessage(r: RedirectRecord): sitesPublishedV1.SiteRedirect {
  return {
    id: r._id,
    source: r.source,
    destination: { ...r.destination },
    captureWildcard: r.captureWildcard,
    draft: r.draft,
    permanent: r.permanent,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt === r.createdAt ? '' : r.updatedAt,
  };
}
