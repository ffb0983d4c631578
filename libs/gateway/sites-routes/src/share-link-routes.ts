import { LIST_QUERY, officialResponse, pageOf, RouteSpec, toList } from '@bindery/gateway/http';
import type { SitesClients } from '@bindery/sites/client';
import { sitesV1 as pb } from '@bindery/shared/contracts';
import { shareLinkJson } from './site-representations';
import { CREATE_SHARE_LINK, SHARE_LINK, SITE, UPDATE_SHARE_LINK } from './site-schemas';

const BASE = '/v1/orgs/:organizationId/sites/:siteId/share-links';
const ref = (p: Record<string, string>): pb.ShareLinkRef => ({ organizationId: p.organizationId, siteId: p.siteId, shareLinkId: p.shareLinkId });

/** Share links of a site: each opens the published site (visibility share-link) through its secret key. */
export function shareLinkRoutes(links: SitesClients['shareLinks']): RouteSpec[] {
  return [
    {
      method: 'get',
      path: BASE,
      operationId: 'listSiteShareLinks',
      summary: "The site's share links, oldest first (members with a role; their URLs, which carry the keys, for admins only)",
      tags: ['sites'],
      params: SITE,
      query: LIST_QUERY,
      success: { status: 200, description: 'A page of share links', schema: officialResponse('listSiteShareLinks') },
      async handler({ caller, deadline, params, query }) {
        const r = await links.listShareLinks({ organizationId: params.organizationId, siteId: params.siteId, page: pageOf(query) }, { caller, deadline });
        return { body: toList(r.items.map(shareLinkJson), r.page) };
      },
    },
    {
      method: 'post',
      path: BASE,
      operationId: 'createSiteShareLink',
      summary: 'Create a share link with a fresh secret key (admins)',
      tags: ['sites'],
      params: SITE,
      body: CREATE_SHARE_LINK,
      success: { status: 201, description: 'The share link', schema: officialResponse('createSiteShareLink') },
      async handler({ caller, deadline, params, body }) {
        const { name } = body as { name: string };
        return { status: 201, body: shareLinkJson(await links.createShareLink({ organizationId: params.organizationId, siteId: params.siteId, name }, { caller, deadline })) };
      },
    },
    {
      method: 'patch',
      path: `${BASE}/:shareLinkId`,
      operationId: 'updateSiteShareLinkById',
      summary: 'Rename a share link, or deactivate (or reactivate) it: its key stops (or starts) working at once (admins)',
      tags: ['sites'],
      params: SHARE_LINK,
      body: UPDATE_SHARE_LINK,
      success: { status: 200, description: 'The share link', schema: officialResponse('updateSiteShareLinkById') },
      async handler({ caller, deadline, params, body }) {
        const b = body as { active?: boolean; name?: string };
        return { body: shareLinkJson(await links.updateShareLink({ ...ref(params), active: b.active, name: b.name }, { caller, deadline })) };
      },
    },
    {
      method: 'delete',
      path: `${BASE}/:shareLinkId`,
      operationId: 'deleteSiteShareLinkById',
      summary: 'Delete a share link: its key stops working at once (admins); 204 when there was no such link',
      tags: ['sites'],
      params: SHARE_LINK,
      success: { status: 205, description: 'The share link was deleted' },
      alternatives: [{ status: 204, description: 'There was no such share link' }],
      async handler({ caller, deadline, params }) {
        return (await links.deleteShareLink(ref(params), { caller, deadline })).deleted ? {} : { status: 204 };
      },
    },
  ];
}
