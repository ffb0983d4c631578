import { invalid, notFound } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { checkAdaptiveSchema, defaultAdaptiveSchema, SiteRecord, TemplateCondition, templateConditionsOf } from '@bindery/sites/domain';
import { visibleSite } from './site-access';
import { siteEvents } from './site-events';
import { nowOf, SitesDeps } from './sites-deps';

/** The most JSON text an adaptive schema may take. */
export const ADAPTIVE_SCHEMA_MAX_BYTES = 256 * 1024;

/** An adaptive schema: the JSON Schema object and when it was set. */
export interface AdaptiveSchemaView {
  jsonSchema: Record<string, unknown>;
  updatedAt: string;
}

/** The site's schema, or the default one (with the site's creation as its time) when none was set. */
function schemaOf(site: SiteRecord): { json: string; updatedAt: string } {
  return site.adaptiveSchema ?? { json: JSON.stringify(defaultAdaptiveSchema()), updatedAt: site.createdAt };
}

/** The site's adaptive schema (view action); a site without one answers the default (docs/sites.md). */
export async function getAdaptiveSchema(deps: SitesDeps, caller: Caller, organizationId: string, siteId: string): Promise<AdaptiveSchemaView> {
  const { site } = await visibleSite(deps, caller, organizationId, siteId);
  const s = schemaOf(site);
  return { jsonSchema: JSON.parse(s.json) as Record<string, unknown>, updatedAt: s.updatedAt };
}

/**
 * Replaces the site's adaptive schema (admin action) with one of the official shape (checked here;
 * the gateway also compiles it as a JSON Schema). Side effect: `sites.site.updated` with
 * "adaptive-schema".
 */
export async function updateAdaptiveSchema(
  deps: SitesDeps,
  caller: Caller,
  organizationId: string,
  siteId: string,
  jsonSchema: Record<string, unknown> | undefined,
): Promise<AdaptiveSchemaView> {
  const { site } = await visibleSite(deps, caller, organizationId, siteId, 'admin');
  if (!jsonSchema) throw invalid('jsonSchema must be an object.');
  if (Buffer.byteLength(JSON.stringify(jsonSchema), 'utf8') > ADAPTIVE_SCHEMA_MAX_BYTES) throw invalid(`jsonSchema may take at most ${ADAPTIVE_SCHEMA_MAX_BYTES} bytes of JSON.`);
  const checked = checkAdaptiveSchema(jsonSchema);
  const adaptiveSchema = { json: JSON.stringify(checked), updatedAt: nowOf(deps) };
  const updated = await deps.sites.setAdaptiveSchema(site.organizationId, site._id, adaptiveSchema, [siteEvents.updated(site, ['adaptive-schema'])]);
  if (!updated) throw notFound('Site');
  return { jsonSchema: checked as Record<string, unknown>, updatedAt: adaptiveSchema.updatedAt };
}

/** Conditions suggested by the schema's claims (view action), e.g. `visitor.claims.unsigned.isBetaUser === true`. */
export async function listTemplateConditions(deps: SitesDeps, caller: Caller, organizationId: string, siteId: string): Promise<TemplateCondition[]> {
  const { site } = await visibleSite(deps, caller, organizationId, siteId);
  return templateConditionsOf(JSON.parse(schemaOf(site).json));
}
