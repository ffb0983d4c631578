import Ajv from 'ajv';
import { officialResponse, RouteSpec } from '@bindery/gateway/http';
import { invalid } from '@bindery/platform/errors';
import type { SitesClients } from '@bindery/sites/client';
import { sitesV1 as pb } from '@bindery/shared/contracts';
import { SITE, UPDATE_ADAPTIVE_SCHEMA } from './site-schemas';

const BASE = '/v1/orgs/:organizationId/sites/:siteId/adaptive-schema';
const ref = (p: Record<string, string>): pb.SiteRef => ({ organizationId: p.organizationId, siteId: p.siteId });

/**
 * Refuses (400, with ajv's words) a schema of the official shape that ajv still cannot compile as a
 * JSON Schema: the claims are checked by visitors' readers with it. A fresh compiler each time, so
 * nothing of one site's schema stays in memory.
 */
export function assertCompilable(jsonSchema: object): void {
  try {
    new Ajv({ strict: true, allErrors: true }).compile(jsonSchema);
  } catch (err) {
    throw invalid(`jsonSchema is not a JSON Schema that can be used: ${(err as Error).message}`);
  }
}

const adaptiveSchemaJson = (s: pb.AdaptiveSchema) => ({ object: 'site-adaptive-schema', jsonSchema: s.jsonSchema ?? {}, updatedAt: s.updatedAt });

/** The adaptive schema of a site: the claims its visitors bring, and conditions suggested by them. */
export function adaptiveSchemaRoutes(sites: SitesClients['sites']): RouteSpec[] {
  return [
    {
      method: 'get',
      path: BASE,
      operationId: 'getSiteAdaptiveSchema',
      summary: "The site's adaptive schema (members with a role); a site without one answers the schema with no claims",
      tags: ['sites'],
      params: SITE,
      success: { status: 200, description: 'The adaptive schema', schema: officialResponse('getSiteAdaptiveSchema') },
      async handler({ caller, deadline, params }) {
        return { body: adaptiveSchemaJson(await sites.getAdaptiveSchema(ref(params), { caller, deadline })) };
      },
    },
    {
      method: 'put',
      path: BASE,
      operationId: 'updateSiteAdaptiveSchema',
      summary: "Replace the site's adaptive schema (admins)",
      tags: ['sites'],
      params: SITE,
      body: UPDATE_ADAPTIVE_SCHEMA,
      success: { status: 200, description: 'The adaptive schema', schema: officialResponse('updateSiteAdaptiveSchema') },
      refusals: [{ status: 400, description: '`jsonSchema` does not compile as a JSON Schema (ajv says why), or its JSON text is over 256 KiB' }],
      async handler({ caller, deadline, params, body }) {
        const { jsonSchema } = body as { jsonSchema: Record<string, unknown> };
        assertCompilable(jsonSchema);
        return { body: adaptiveSchemaJson(await sites.updateAdaptiveSchema({ ...ref(params), jsonSchema }, { caller, deadline })) };
      },
    },
    {
      method: 'get',
      path: `${BASE}/template-conditions`,
      operationId: 'listSiteAdaptiveTemplateConditions',
      summary: "Conditions suggested by the schema's boolean and enum claims, e.g. visitor.claims.unsigned.isBetaUser === true (members with a role)",
      tags: ['sites'],
      params: SITE,
      success: { status: 200, description: 'The conditions', schema: officialResponse('listSiteAdaptiveTemplateConditions') },
      async handler({ caller, deadline, params }) {
        const r = await sites.listTemplateConditions(ref(params), { caller, deadline });
        return { body: { items: r.items.map((c) => ({ description: c.description, condition: c.condition })) } };
      },
    },
  ];
}
