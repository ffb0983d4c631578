import { ID_PARAM, LIST_QUERY, object, officialResponse, pageOf, RouteSpec, toList } from '@bindery/gateway/http';
import type { Urls } from '@bindery/gateway/identity-routes';
import type { SpecsClients } from '@bindery/specs/client';
import { contentJson, specJson, versionJson } from './spec-representations';

/** The reference's slug (OpenAPISpecSlug). */
const SLUG = { type: 'string', minLength: 1, maxLength: 100, pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' };
/** `{url}` or `{text}` (OpenAPISpecSource), nothing else. */
const SOURCE = {
  oneOf: [
    object({ url: { type: 'string', minLength: 1, maxLength: 2048, pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s]+$', description: 'an http(s) URL the document is fetched from' } }, [
      'url',
    ]),
    object({ text: { type: 'string', minLength: 1, description: 'the document itself, JSON or YAML' } }, ['text']),
  ],
};
const ORG = { organizationId: ID_PARAM };
const SPEC = { organizationId: ID_PARAM, specSlug: SLUG };
const VERSION = { organizationId: ID_PARAM, specSlug: SLUG, versionId: ID_PARAM };
const SOURCE_REFUSAL = {
  status: 400 as const,
  description: 'The source text is only white space, or the source URL does not parse as an http(s) URL or is longer than 2048 characters once normalised (kept as `URL.href`)',
};
const PROCESSING =
  'The answer comes at once with `processingState: "pending"`; a durable run fetches (a URL source, through the outbound guard), parses and validates the document, then the state is `complete`, with a new version when the document changed, or with `lastProcessErrorCode` and `lastProcessedErrors` saying what is wrong and where.';

type Source = { url?: string; text?: string };

/** /v1/orgs/{orgId}/openapi…: the organization's OpenAPI specs, their versions and contents. */
export function specRoutes(clients: SpecsClients, urls: Urls): RouteSpec[] {
  const { specs } = clients;
  const ref = (params: Record<string, string>, versionId = '') => ({ organizationId: params.organizationId, slug: params.specSlug, versionId });
  return [
    {
      method: 'get',
      path: '/v1/orgs/:organizationId/openapi',
      operationId: 'listOpenAPISpecs',
      summary: "List the organization's OpenAPI specs (members with a role)",
      tags: ['openapi'],
      params: ORG,
      query: LIST_QUERY,
      success: { status: 200, description: 'A page of specs', schema: officialResponse('listOpenAPISpecs') },
      async handler({ caller, deadline, params, query }) {
        const r = await specs.listSpecs({ organizationId: params.organizationId, page: pageOf(query) }, { caller, deadline });
        return {
          body: toList(
            r.items.map((s) => specJson(s, urls)),
            r.page,
          ),
        };
      },
    },
    {
      method: 'post',
      path: '/v1/orgs/:organizationId/openapi',
      operationId: 'createOpenAPISpec',
      summary: 'Create an OpenAPI spec from a URL or a text (the create role); its slug must be new in the organization (409)',
      description: PROCESSING,
      tags: ['openapi'],
      params: ORG,
      body: object({ slug: SLUG, source: SOURCE }, ['slug', 'source']),
      success: { status: 201, description: 'The spec, processing', schema: officialResponse('createOpenAPISpec') },
      refusals: [SOURCE_REFUSAL],
      async handler({ caller, deadline, params, body }) {
        const b = body as { slug: string; source: Source };
        const spec = await specs.createSpec({ organizationId: params.organizationId, slug: b.slug, source: b.source }, { caller, deadline });
        return { status: 201, body: specJson(spec, urls) };
      },
    },
    {
      method: 'get',
      path: '/v1/orgs/:organizationId/openapi/:specSlug',
      operationId: 'getOpenAPISpecBySlug',
      summary: 'Get an OpenAPI spec, with the state of its processing',
      tags: ['openapi'],
      params: SPEC,
      success: { status: 200, description: 'The spec', schema: officialResponse('getOpenAPISpecBySlug') },
      async handler({ caller, deadline, params }) {
        return { body: specJson(await specs.getSpec({ organizationId: params.organizationId, slug: params.specSlug }, { caller, deadline }), urls) };
      },
    },
    {
      method: 'put',
      path: '/v1/orgs/:organizationId/openapi/:specSlug',
      operationId: 'createOrUpdateOpenAPISpecBySlug',
      summary: 'Give the spec with this slug a new source (the edit role), or create it (the create role: 201)',
      description: PROCESSING,
      tags: ['openapi'],
      params: SPEC,
      body: object({ source: SOURCE }, ['source']),
      success: { status: 200, description: 'The spec, processing its new source', schema: officialResponse('createOrUpdateOpenAPISpecBySlug') },
      alternatives: [{ status: 201, description: 'There was no spec with this slug: it was created', schema: officialResponse('createOrUpdateOpenAPISpecBySlug') }],
      refusals: [SOURCE_REFUSAL],
      async handler({ caller, deadline, params, body }) {
        const r = await specs.putSpec({ organizationId: params.organizationId, slug: params.specSlug, source: (body as { source: Source }).source }, { caller, deadline });
        return { status: r.created ? 201 : 200, body: specJson(r.spec!, urls) };
      },
    },
    {
      method: 'patch',
      path: '/v1/orgs/:organizationId/openapi/:specSlug',
      operationId: 'updateOpenAPISpecBySlug',
      summary: "Change an OpenAPI spec's visibility (the create role)",
      tags: ['openapi'],
      params: SPEC,
      body: object({ visibility: { type: 'string', enum: ['private', 'public'] } }, ['visibility']),
      success: { status: 200, description: 'The spec', schema: officialResponse('updateOpenAPISpecBySlug') },
      async handler({ caller, deadline, params, body }) {
        const { visibility } = body as { visibility: string };
        return { body: specJson(await specs.updateSpec({ organizationId: params.organizationId, slug: params.specSlug, visibility }, { caller, deadline }), urls) };
      },
    },
    {
      method: 'delete',
      path: '/v1/orgs/:organizationId/openapi/:specSlug',
      operationId: 'deleteOpenAPISpecBySlug',
      summary: 'Delete an OpenAPI spec with its versions (the create role)',
      tags: ['openapi'],
      params: SPEC,
      success: { status: 205, description: 'The spec was deleted' },
      alternatives: [{ status: 204, description: 'There was no such spec' }],
      async handler({ caller, deadline, params }) {
        const r = await specs.deleteSpec({ organizationId: params.organizationId, slug: params.specSlug }, { caller, deadline });
        return { status: r.deleted ? 205 : 204 };
      },
    },
    {
      method: 'get',
      path: '/v1/orgs/:organizationId/openapi/:specSlug/versions',
      operationId: 'listOpenAPISpecVersions',
      summary: "List an OpenAPI spec's versions, newest first",
      tags: ['openapi'],
      params: SPEC,
      query: LIST_QUERY,
      success: { status: 200, description: 'A page of versions', schema: officialResponse('listOpenAPISpecVersions') },
      async handler({ caller, deadline, params, query }) {
        const r = await specs.listVersions({ organizationId: params.organizationId, slug: params.specSlug, page: pageOf(query) }, { caller, deadline });
        return {
          body: toList(
            r.items.map((v) => versionJson(v, params.organizationId, params.specSlug, urls)),
            r.page,
          ),
        };
      },
    },
    {
      method: 'get',
      path: '/v1/orgs/:organizationId/openapi/:specSlug/versions/latest',
      operationId: 'getLatestOpenAPISpecVersion',
      summary: "Get an OpenAPI spec's latest version (404 until a processing succeeded)",
      tags: ['openapi'],
      params: SPEC,
      success: { status: 200, description: 'The latest version', schema: officialResponse('getLatestOpenAPISpecVersion') },
      async handler({ caller, deadline, params }) {
        return { body: versionJson(await specs.getVersion(ref(params), { caller, deadline }), params.organizationId, params.specSlug, urls) };
      },
    },
    {
      method: 'get',
      path: '/v1/orgs/:organizationId/openapi/:specSlug/versions/latest/content',
      operationId: 'getLatestOpenAPISpecVersionContent',
      summary: "Get the files of an OpenAPI spec's latest version",
      tags: ['openapi'],
      params: SPEC,
      success: { status: 200, description: 'The latest version content', schema: officialResponse('getLatestOpenAPISpecVersionContent') },
      async handler({ caller, deadline, params }) {
        return { body: contentJson(await specs.getVersionContent(ref(params), { caller, deadline }), params.organizationId, params.specSlug, urls) };
      },
    },
    {
      method: 'get',
      path: '/v1/orgs/:organizationId/openapi/:specSlug/versions/latest/content/raw',
      operationId: 'getLatestOpenAPISpecVersionContentRaw',
      summary: "Get the entry file of an OpenAPI spec's latest version exactly as it was received",
      tags: ['openapi'],
      params: SPEC,
      success: { status: 200, description: 'The raw entry file', schema: officialResponse('getLatestOpenAPISpecVersionContentRaw') },
      async handler({ caller, deadline, params }) {
        const raw = await specs.getVersionRawContent(ref(params), { caller, deadline });
        return { body: { text: raw.text, format: raw.format } };
      },
    },
    {
      method: 'get',
      path: '/v1/orgs/:organizationId/openapi/:specSlug/versions/:versionId',
      operationId: 'getOpenAPISpecVersionById',
      summary: 'Get a version of an OpenAPI spec',
      tags: ['openapi'],
      params: VERSION,
      success: { status: 200, description: 'The version', schema: officialResponse('getOpenAPISpecVersionById') },
      async handler({ caller, deadline, params }) {
        return { body: versionJson(await specs.getVersion(ref(params, params.versionId), { caller, deadline }), params.organizationId, params.specSlug, urls) };
      },
    },
    {
      method: 'get',
      path: '/v1/orgs/:organizationId/openapi/:specSlug/versions/:versionId/content',
      operationId: 'getOpenAPISpecVersionContentById',
      summary: 'Get the files of a version of an OpenAPI spec',
      tags: ['openapi'],
      params: VERSION,
      success: { status: 200, description: 'The version content', schema: officialResponse('getOpenAPISpecVersionContentById') },
      async handler({ caller, deadline, params }) {
        return { body: contentJson(await specs.getVersionContent(ref(params, params.versionId), { caller, deadline }), params.organizationId, params.specSlug, urls) };
      },
    },
  ];
}
