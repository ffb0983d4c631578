import { sitesV1 as pb } from '@bindery/shared/contracts';
import { publishedUrlOf, SitePermissions, SiteRecord, siteUrlOf } from '@bindery/sites/domain';
import type { SitesDeps } from './sites-deps';

/** The Site message of a record, for a caller with these permissions. */
export function siteMessage(deps: Pick<SitesDeps, 'readerUrl'>, site: SiteRecord, permissions: SitePermissions, defaultSpace?: string): pb.Site {
  return {
    id: site._id,
    organizationId: site.organizationId,
    type: site.type,
    title: site.title,
    hostname: site.hostname,
    basename: site.basename,
    // the proxy forwards to where the reader serves the site, wherever the basename moved since
    proxy: site.proxy ? { origin: site.proxy.origin, target: siteUrlOf({ basename: site.basename }, deps.readerUrl) } : undefined,
    visibility: site.visibility,
    published: site.published,
    siteSpaces: site.siteSpaces,
    createdAt: site.createdAt,
    updatedAt: site.updatedAt,
    adaptiveContentEnabled: site.adaptiveContent?.enabled,
    agentsContext: site.agentsContext,
    defaultSpace,
    publishedUrl: publishedUrlOf(site, deps.readerUrl),
    previewUrl: siteUrlOf(site, deps.readerUrl),
    permissions,
  };
}

/** Site messages of records, each with the space it shows by default. */
export async function siteMessages(deps: Pick<SitesDeps, 'readerUrl' | 'dependents'>, sites: SiteRecord[], permissions: SitePermissions): Promise<pb.Site[]> {
  const defaults = await deps.dependents.defaultSpaces(sites);
  return sites.map((s) => siteMessage(deps, s, permissions, defaults.get(s._id)));
}

export async function oneSiteMessage(deps: Pick<SitesDeps, 'readerUrl' | 'dependents'>, site: SiteRecord, permissions: SitePermissions): Promise<pb.Site> {
  return (await siteMessages(deps, [site], permissions))[0];
}
