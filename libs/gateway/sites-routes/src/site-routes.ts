import { officialResponse, officialSchema, pageOf, RouteSpec, toList } from '@bindery/gateway/http';
import type { Urls } from '@bindery/gateway/identity-routes';
import type { SitesClients } from '@bindery/sites/client';
import { sitesV1 as pb } from '@bindery/shared/contracts';
import { siteJson } from './site-representations';
import { CREATE_SITE, LIST_SITES_QUERY, ORG, SITE, UPDATE_SITE } from './site-schemas';

const ref = (p: Record<string, string>): pb.SiteRef => ({ organizationId: p.organizationId, siteId: p.siteId });
const listOfQuery = (v: unknown): string[] => (v === undefined ? [] : Array.isArray(v) ? (v as string[]) : [v as string]);

/** /v1/orgs/{organizationId}/sites…: sites, their settings and publishing. */
export function siteRoutes(sites: SitesClients['sites'], urls: Urls): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/v1/orgs/:organizationId/sites',
      operationId: 'listSites',
      summary: "The organization's sites, oldest first (members with a role)",
      tags: ['sites'],
      params: ORG,
      query: LIST_SITES_QUERY,
      success: { status: 200, description: 'A page of sites', schema: officialResponse('listSites') },
      async handler({ caller, deadline, params, query }) {
        const r = await sites.listSites(
          {
            organizationId: params.organizationId,
            page: pageOf(query),
            spaceId: query.space as string | undefined,
            title: query.title as string | undefined,
            published: query.published as boolean | undefined,
            types: listOfQuery(query.type),
          },
          { caller, deadline },
        );
        return {
          body: toList(
            r.items.map((s) => siteJson(s, urls)),
            r.page,
          ),
        };
      },
    },
    {
      method: 'post',
      path: '/v1/orgs/:organizationId/sites',
      operationId: 'createSite',
      summary: 'Create a site, unpublished, with a basename from its title (create role and up)',
      description:
        'The spaces given become its site spaces at the root, in order, each with a path from its title; "sample" or "empty" creates a space for it (as the caller; "sample" with a first page).',
      tags: ['sites'],
      params: ORG,
      body: CREATE_SITE,
      bodyOptional: true,
      success: { status: 201, description: 'The site', schema: officialResponse('createSite') },
      refusals: [{ status: 400, description: '`spaces` names a space twice, or one that is not a space of this organization the caller can read' }],
      async handler({ caller, deadline, params, body }) {
        const b = (body ?? {}) as { type?: string; title?: string; visibility?: string; spaces?: string[] | string };
        const site = await sites.createSite(
          {
            organizationId: params.organizationId,
            type: b.type,
            title: b.title,
            visibility: b.visibility,
            spaceIds: Array.isArray(b.spaces) ? b.spaces : [],
            newSpace: typeof b.spaces === 'string' ? b.spaces : undefined,
          },
          { caller, deadline },
        );
        const json = siteJson(site, urls);
        return { status: 201, body: json, headers: { Location: json.urls.location } };
      },
    },
    {
      method: 'get',
      path: '/v1/orgs/:organizationId/sites/:siteId',
      operationId: 'getSiteById',
      summary: 'A site (members with a role)',
      tags: ['sites'],
      params: SITE,
      success: { status: 200, description: 'The site', schema: officialResponse('getSiteById') },
      async handler({ caller, deadline, params }) {
        return { body: siteJson(await sites.getSite(ref(params), { caller, deadline }), urls) };
      },
    },
    {
      method: 'patch',
      path: '/v1/orgs/:organizationId/sites/:siteId',
      operationId: 'updateSiteById',
      summary: "Change a site's settings: title and defaults (edit role and up); visibility, basename, proxy, adaptive content, agents context (admins)",
      description: 'A basename another site of the instance has is a 409.',
      tags: ['sites'],
      params: SITE,
      body: UPDATE_SITE,
      success: { status: 200, description: 'The site', schema: officialResponse('updateSiteById') },
      refusals: [
        {
          status: 400,
          description:
            '`defaultSiteSpace` is not a site space of the site at its root or in its default section, `defaultSiteSection` is not a section of the site, or `basename` is reserved (healthz, readyz)',
        },
      ],
      async handler({ caller, deadline, params, body }) {
        const b = body as {
          title?: string;
          visibility?: string;
          basename?: string;
          adaptiveContent?: { enabled: boolean };
          agentsContext?: string;
          defaultSiteSpace?: string;
          defaultSiteSection?: string;
          proxy?: string | null;
        };
        const site = await sites.updateSite(
          {
            ...ref(params),
            title: b.title,
            visibility: b.visibility,
            basename: b.basename,
            adaptiveContentEnabled: b.adaptiveContent?.enabled,
            agentsContext: b.agentsContext,
            defaultSiteSpace: b.defaultSiteSpace,
            defaultSiteSection: b.defaultSiteSection,
            proxy: b.proxy === undefined ? undefined : { value: b.proxy ?? undefined },
          },
          { caller, deadline },
        );
        return { body: siteJson(site, urls) };
      },
    },
    {
      method: 'delete',
      path: '/v1/orgs/:organizationId/sites/:siteId',
      operationId: 'deleteSiteById',
      summary: 'Delete a site with its sections, site spaces, redirects and share links (admins); 204 when there was no such site',
      tags: ['sites'],
      params: SITE,
      success: { status: 205, description: 'The site was deleted' },
      alternatives: [{ status: 204, description: 'There was no such site (already deleted, or never there)' }],
      async handler({ caller, deadline, params }) {
        return (await sites.deleteSite(ref(params), { caller, deadline })).deleted ? {} : { status: 204 };
      },
    },
    {
      method: 'post',
      path: '/v1/orgs/:organizationId/sites/:siteId/publish',
      operationId: 'publishSite',
      summary: 'Publish a site (create role and up); publishing a published site changes nothing',
      tags: ['sites'],
      params: SITE,
      success: { status: 200, description: 'The site', schema: officialSchema('Site') },
      async handler({ caller, deadline, params }) {
        return { body: siteJson(await sites.publishSite(ref(params), { caller, deadline }), urls) };
      },
    },
    {
      method: 'post',
      path: '/v1/orgs/:organizationId/sites/:siteId/unpublish',
      operationId: 'unpublishSite',
      summary: 'Unpublish a site (create role and up); unpublishing an unpublished site changes nothing',
      tags: ['sites'],
      params: SITE,
      success: { status: 200, description: 'The site', schema: officialResponse('unpublishSite') },
      async handler({ caller, deadline, params }) {
        return { body: siteJson(await sites.unpublishSite(ref(params), { caller, deadline }), urls) };
      },
    },
  ];
}
