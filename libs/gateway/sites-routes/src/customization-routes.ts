import { officialLatestResponse, officialRequest, RouteSpec } from '@bindery/gateway/http';
import type { SitesClients } from '@bindery/sites/client';
import type { sitesCustomizationV1 as pb } from '@bindery/shared/contracts';
import { SITE } from './site-schemas';
import { SITE_SPACE } from './structure-schemas';

const BASE = '/v1/orgs/:organizationId/sites/:siteId';
/** 0.202.0's deprecated `unmasked`: accepted and without effect (Bindery masks nothing). */
const UNMASKED = { unmasked: { type: 'boolean', description: 'Deprecated; accepted and without effect.' } };
const spaceRef = (p: Record<string, string>): pb.SiteSpaceCustomizationRef => ({ organizationId: p.organizationId, siteId: p.siteId, siteSpaceId: p.siteSpaceId });
const settingsJson = (c: pb.SiteCustomization) => ({ ...(c.settings ?? {}), ...(c.updatedAt ? { updatedAt: c.updatedAt } : {}) });

/** A site's customization (branding of its published site) and its site spaces' overrides (0.202.0). */
export function customizationRoutes(customization: SitesClients['customization']): RouteSpec[] {
  return [
    {
      method: 'get',
      path: `${BASE}/customization`,
      operationId: 'getSiteCustomizationById',
      summary: "The site's customization, defaults filled (members with a role)",
      tags: ['sites'],
      params: SITE,
      query: UNMASKED,
      success: { status: 200, description: 'The customization', schema: officialLatestResponse('getSiteCustomizationById') },
      async handler({ caller, deadline, params }) {
        return { body: settingsJson(await customization.getSiteCustomization({ organizationId: params.organizationId, siteId: params.siteId }, { caller, deadline })) };
      },
    },
    {
      method: 'put',
      path: `${BASE}/customization`,
      operationId: 'updateSiteCustomizationById',
      summary: "Replace the site's customization; what the body leaves out takes its default (edit role and up)",
      tags: ['sites'],
      params: SITE,
      body: officialRequest('updateSiteCustomizationById'),
      success: { status: 200, description: 'The customization', schema: officialLatestResponse('updateSiteCustomizationById') },
      async handler({ caller, deadline, params, body }) {
        const settings = body as Record<string, unknown>;
        return {
          body: settingsJson(await customization.updateSiteCustomization({ organizationId: params.organizationId, siteId: params.siteId, settings }, { caller, deadline })),
        };
      },
    },
    {
      method: 'get',
      path: `${BASE}/site-spaces/:siteSpaceId/customization`,
      operationId: 'getSiteSpaceCustomizationById',
      summary: "The site space's customization: the site's with the site space's overrides applied (members with a role)",
      tags: ['sites'],
      params: SITE_SPACE,
      query: UNMASKED,
      success: { status: 200, description: 'The effective customization', schema: officialLatestResponse('getSiteSpaceCustomizationById') },
      async handler({ caller, deadline, params }) {
        return { body: settingsJson(await customization.getSiteSpaceCustomization(spaceRef(params), { caller, deadline })) };
      },
    },
    {
      method: 'patch',
      path: `${BASE}/site-spaces/:siteSpaceId/customization`,
      operationId: 'overrideSiteSpaceCustomizationById',
      summary: "Override the site's customization for a site space: given fields replace, null removes an override (edit role and up)",
      tags: ['sites'],
      params: SITE_SPACE,
      body: officialRequest('overrideSiteSpaceCustomizationById'),
      success: { status: 200, description: 'The effective customization', schema: officialLatestResponse('overrideSiteSpaceCustomizationById') },
      async handler({ caller, deadline, params, body }) {
        const overrides = body as Record<string, unknown>;
        return { body: settingsJson(await customization.overrideSiteSpaceCustomization({ ...spaceRef(params), overrides }, { caller, deadline })) };
      },
    },
    {
      method: 'delete',
      path: `${BASE}/site-spaces/:siteSpaceId/customization`,
      operationId: 'deleteSiteSpaceCustomizationById',
      summary: "Remove every override of the site space: it shows the site's customization (edit role and up)",
      tags: ['sites'],
      params: SITE_SPACE,
      success: { status: 205, description: 'The overrides were removed' },
      alternatives: [{ status: 204, description: 'The site space had no overrides' }],
      async handler({ caller, deadline, params }) {
        return (await customization.deleteSiteSpaceCustomization(spaceRef(params), { caller, deadline })).deleted ? {} : { status: 204 };
      },
    },
  ];
}
