import { ID_PARAM, JsonSchema, LIST_QUERY, object, trimmedText } from '@bindery/gateway/http';

/**
 * Request schemas of sites and their adaptive schema, after the official 0.130.0 bodies, closed
 * (unknown fields refused) and bounded where the official ones are open. The values below repeat the
 * sites domain's rules (site-settings.ts, site-paths.ts, adaptive-schema.ts): the service checks
 * them again.
 */
export const ORG = { organizationId: ID_PARAM };
export const SITE = { organizationId: ID_PARAM, siteId: ID_PARAM };

export const SITE_TYPE: JsonSchema = { type: 'string', enum: ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'] };
export const SITE_VISIBILITY: JsonSchema = { type: 'string', enum: ['public', 'unlisted', 'share-link', 'visitor-auth'] };
const SITE_TITLE: JsonSchema = trimmedText(2, 128);
/** The most spaces a site is created with (sites' MAX_INITIAL_SPACES). */
const MAX_INITIAL_SPACES = 50;

export const LIST_SITES_QUERY: Record<string, JsonSchema> = {
  ...LIST_QUERY,
  space: { ...ID_PARAM, description: 'Only sites showing this space' },
  title: { type: 'string', minLength: 1, maxLength: 128, description: 'Only sites whose title contains this text (any case)' },
  published: { type: 'boolean', description: 'Only published (true) or unpublished (false) sites' },
  type: { anyOf: [SITE_TYPE, { type: 'array', items: SITE_TYPE, maxItems: 6 }], description: 'Only sites of one of these types' },
};

export const CREATE_SITE: JsonSchema = object({
  type: { ...SITE_TYPE, description: 'The type of the site (default basic)' },
  title: { ...SITE_TITLE, description: 'Title of the site (default "Untitled site")' },
  visibility: { ...SITE_VISIBILITY, description: 'Who may read the site once published (default public)' },
  spaces: {
    description: 'The spaces the site shows, in order (the first is its default), or "sample"/"empty" for a new space made for it',
    oneOf: [
      { type: 'array', items: ID_PARAM, maxItems: MAX_INITIAL_SPACES },
      { type: 'string', enum: ['sample', 'empty'] },
    ],
  },
});

/** A basename or path: lower-case letters, digits and hyphens (sites' SLUG_PATTERN). */
const SLUG: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 100,
  pattern: '^[a-z0-9](?:[a-z0-9-]{0,98}[a-z0-9])?$',
  description: 'lower-case letters, digits and hyphens, starting and ending with a letter or digit',
};

export const UPDATE_SITE: JsonSchema = object({
  title: SITE_TITLE,
  visibility: SITE_VISIBILITY,
  basename: SLUG,
  adaptiveContent: object({ enabled: { type: 'boolean' } }, ['enabled']),
  agentsContext: { type: 'string', enum: ['excluded', 'included'] },
  defaultSiteSpace: { ...ID_PARAM, description: "A site space at the site's root, or in its default section" },
  defaultSiteSection: { ...ID_PARAM, description: 'A section of the site' },
  proxy: {
    description: 'A host and a path below it (e.g. company.com/docs), or null to remove the proxy',
    anyOf: [
      { type: 'string', maxLength: 512, pattern: '^([\\w-]+\\.)*[\\w-]+\\.[a-zA-Z]{2,}(\\/[\\w-]+)+$', description: 'a host and a path below it, without a scheme' },
      { type: 'null' },
    ],
  },
});

// The adaptive schema's official shape (SiteAdaptiveJSONSchema), with its recursion unrolled to the
// depth sites allows: objects of claims nest at most 4 deep, 100 claims an object, 100 enum values.
const DEPTH = 4;
const DESCRIPTION: JsonSchema = { type: 'string', maxLength: 1000 };
const CLOSED = { const: false };
const claimOf = (type: string, extra: Record<string, JsonSchema> = {}, required: string[] = []) =>
  object({ type: { type: 'string', enum: [type] }, description: DESCRIPTION, ...extra }, ['type', 'description', ...required]);
const PRIMITIVES: JsonSchema[] = [
  claimOf('boolean'),
  claimOf('string', { enum: { type: 'array', maxItems: 100, items: { type: 'string', maxLength: 1000 } } }, ['enum']),
  claimOf('string'),
  claimOf('number'),
];
const claim = (depth: number): JsonSchema => ({
  oneOf: [
    ...PRIMITIVES,
    claimOf('array', { items: { oneOf: PRIMITIVES } }, ['items']),
    ...(depth < DEPTH ? [claimOf('object', { properties: claims(depth + 1), additionalProperties: CLOSED }, ['properties', 'additionalProperties'])] : []),
  ],
});
const claims = (depth: number): JsonSchema => ({ type: 'object', maxProperties: 100, additionalProperties: claim(depth) });

export const ADAPTIVE_JSON_SCHEMA: JsonSchema = {
  ...object(
    {
      $schema: { type: 'string', enum: ['http://json-schema.org/draft-07/schema#'] },
      type: { type: 'string', enum: ['object'] },
      properties: {
        type: 'object',
        // 100 signed claims, and `unsigned`
        maxProperties: 101,
        anyOf: [{ maxProperties: 100 }, { required: ['unsigned'], properties: { unsigned: true } }],
        properties: {
          unsigned: object(
            {
              type: { type: 'string', enum: ['object'] },
              description: { type: 'string', enum: ['Unsigned claims of the site visitor.'] },
              properties: claims(1),
              additionalProperties: CLOSED,
            },
            ['type', 'description', 'properties', 'additionalProperties'],
          ),
        },
        additionalProperties: claim(1),
      },
      additionalProperties: CLOSED,
    },
    ['type', 'properties', 'additionalProperties'],
  ),
  description: "JSON Schema (draft-07) of the visitor's claims, in the official SiteAdaptiveJSONSchema shape",
};

export const UPDATE_ADAPTIVE_SCHEMA: JsonSchema = object({ jsonSchema: ADAPTIVE_JSON_SCHEMA }, ['jsonSchema']);

export const SHARE_LINK = { organizationId: ID_PARAM, siteId: ID_PARAM, shareLinkId: ID_PARAM };
const SHARE_LINK_NAME: JsonSchema = { type: 'string', minLength: 0, maxLength: 50, description: 'Name of the share link' };
export const CREATE_SHARE_LINK: JsonSchema = object({ name: SHARE_LINK_NAME }, ['name']);
export const UPDATE_SHARE_LINK: JsonSchema = { ...object({ active: { type: 'boolean' }, name: SHARE_LINK_NAME }), minProperties: 1 };
