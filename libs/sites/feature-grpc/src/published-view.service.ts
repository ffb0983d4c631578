import { internalCaller } from '@bindery/platform/grpc';
import { sitesPublishedV1 as pb } from '@bindery/shared/contracts';
import { audienceSpaceIds } from '@bindery/sites/domain';
import { resolveUrl } from './published-urls.service';
import type { SitesDeps } from './sites-deps';
import { publishedSiteOf } from './structure.service';
import { structureForVisitor } from './structure-scope';

const SITES = internalCaller('sites');

/**
 * OpenPublishedUrl: a renderer's one call per request. The resolver's answer (resolvePublishedUrl,
 * with the share key given beside the URL), and when it opens content: the scope of the site token
 * it minted (what AuthenticateSiteToken would answer for it now: the spaces the site publishes to
 * this audience) and the published site as GetPublishedSite reads it, with the sections and site
 * spaces whose condition fails for the visitor left out. Every site space left is one of the
 * scope's spaces, so the renderer reads any of them with the same token. Reads only; no events;
 * the share key, the visitor token and the minted token are never logged.
 */
export async function openPublishedUrl(deps: SitesDeps, req: pb.OpenPublishedUrlRequest): Promise<pb.PublishedUrlView> {
  const { reply, opened } = await resolveUrl(deps, req.url, req.visitor, req.shareKey);
  if (!opened) return { content: reply, scope: undefined, site: undefined };
  const { site, shown, visitor, tokenId } = opened;
  const published = await publishedSiteOf(deps, { site, spacesAs: SITES, published: true });
  return {
    content: reply,
    scope: { organizationId: site.organizationId, siteId: site._id, spaceIds: audienceSpaceIds(shown, visitor), tokenId },
    site: { ...published, structure: structureForVisitor(published.structure, visitor) },
  };
}
