import { officialResponse, RouteSpec } from '@bindery/gateway/http';
import type { Urls } from '@bindery/gateway/identity-routes';
import type { SitesClients } from '@bindery/sites/client';
import { sectionGroupRoutes } from './section-group-routes';
import { sectionRoutes, siteOf } from './section-routes';
import { siteSpaceRoutes } from './site-space-routes';
import { publishedSiteJson, structureItemJson, structureJson } from './structure-representations';
import { pointerOf, SHARE_KEY_QUERY, SITE, SORT_STRUCTURE } from './structure-schemas';

const BASE = '/v1/orgs/:organizationId/sites/:siteId';

/** A site's structure: its sections, section groups and site spaces, their order, and the published site. */
export function structureRoutes(structure: SitesClients['structure'], urls: Urls): RouteSpec[] {
  return [
    ...sectionRoutes(structure, urls),
    ...sectionGroupRoutes(structure, urls),
    ...siteSpaceRoutes(structure, urls),
    {
      method: 'get',
      path: `${BASE}/structure`,
      operationId: 'getSiteStructure',
      summary:
        "The site's structure: its sections and section groups in order, or its site spaces when it has no sections (readers, or anyone with an active share key of the published share-link site)",
      tags: ['sites'],
      params: SITE,
      query: SHARE_KEY_QUERY,
      success: { status: 200, description: 'The structure', schema: officialResponse('getSiteStructure') },
      async handler({ caller, deadline, params, query }) {
        const s = await structure.getStructure({ ...siteOf(params), page: undefined, shareKey: query.shareKey as string | undefined }, { caller, deadline });
        return { body: structureJson(s, urls, siteOf(params)) };
      },
    },
    {
      method: 'patch',
      path: `${BASE}/structure/sort`,
      operationId: 'sortSiteStructure',
      summary: 'Move a site space, section or section group before or after another item of its level, or to the end of its level (edit role)',
      tags: ['sites'],
      params: SITE,
      body: SORT_STRUCTURE,
      refusals: [{ status: 400, description: 'the position names an item that is not of the moved item’s level' }],
      success: { status: 200, description: 'The item moved', schema: officialResponse('sortSiteStructure') },
      async handler({ caller, deadline, params, body }) {
        const b = body as { item: { type: string; id: string }; position: { before?: { type: string; id: string }; after?: { type: string; id: string } } };
        const item = await structure.sortStructure(
          { ...siteOf(params), item: pointerOf(b.item), position: { before: pointerOf(b.position.before), after: pointerOf(b.position.after) } },
          { caller, deadline },
        );
        return { body: structureItemJson(item, urls, siteOf(params)) };
      },
    },
    {
      method: 'get',
      path: `${BASE}/published`,
      operationId: 'getPublishedContentSite',
      summary:
        "The published site with its structure: 404 unless published; members who may view it, anyone when it is public or unlisted, or share-link with an active key, and the site's own site tokens (the site spaces of their audience)",
      tags: ['sites'],
      siteToken: true,
      params: SITE,
      query: SHARE_KEY_QUERY,
      success: { status: 200, description: 'The published site', schema: officialResponse('getPublishedContentSite') },
      async handler({ caller, deadline, params, query }) {
        const p = await structure.getPublishedSite({ ...siteOf(params), page: undefined, shareKey: query.shareKey as string | undefined }, { caller, deadline });
        return { body: publishedSiteJson(p, urls, siteOf(params)) };
      },
    },
  ];
}
