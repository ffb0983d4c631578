import type { Caller } from '@bindery/platform/grpc';
import { sitesPublishedV1 as pb } from '@bindery/shared/contracts';
import { loadShownItems } from '@bindery/sites/data-access';
import { scopeSpaceIds, searchScopeOf } from '@bindery/sites/domain';
import { visibleSite } from './site-access';
import type { SitesDeps } from './sites-deps';

/**
 * Searches a site's content (view action; a site token's caller: its own site): the scope is
 * resolved to the spaces of the site's shown site spaces, then search's SearchSpaces searches those
 * as the caller — content answers for each space whether the caller reads it (a member: as their
 * role on the space; a site token: the spaces of its site), and the others are left out. Answers
 * SearchSpaceResult items (without URLs) and the page. Reads only.
 */
export async function searchSite(deps: SitesDeps, caller: Caller, req: pb.SearchSiteRequest): Promise<pb.SearchSiteResponse> {
  const { site } = await visibleSite(deps, caller, req.organizationId, req.siteId, 'view');
  const scope = searchScopeOf(req.scope);
  const { siteSpaces, sections } = await loadShownItems(deps, site);
  const spaceIds = scopeSpaceIds(scope, { siteSpaces, sections, defaultSiteSpaceId: site.defaultSiteSpaceId });
  const reply = await deps.search.search.searchSpaces({ organizationId: site.organizationId, spaceIds, query: req.query, page: req.page }, { caller });
  return { spaces: reply.spaces, page: reply.page };
}
