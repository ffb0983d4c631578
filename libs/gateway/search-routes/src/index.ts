import { defineGatewayModule, ID_PARAM, LIST_QUERY, officialResponse, pageOf, RouteSpec, toList } from '@bindery/gateway/http';
import type { Urls } from '@bindery/gateway/identity-routes';
import { connectSearch, SearchClients } from '@bindery/search/client';
import { PageResultJson, pageResultJson, SpaceResultJson, spaceResultJson } from './search-representations';

const SEARCH_QUERY = {
  ...LIST_QUERY,
  query: { type: 'string', maxLength: 512, description: 'What to look for: words (the last one also as a prefix), "phrases in quotes"' },
};

/** Search's routes: a space's pages, or an organization's spaces and their pages, matching a query, as the caller may read them. */
export function searchRoutes(clients: SearchClients, urls: Urls): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/v1/spaces/:spaceId/search',
      operationId: 'searchSpaceContent',
      summary: "Search the current revision of a space's pages (readers of the space)",
      tags: ['search'],
      params: { spaceId: ID_PARAM },
      query: SEARCH_QUERY,
      success: { status: 200, description: 'A page of matching pages, best first', schema: officialResponse('searchSpaceContent') },
      async handler({ caller, deadline, params, query }) {
        const r = await clients.search.searchSpace({ spaceId: params.spaceId, query: (query.query as string) ?? '', page: pageOf(query) }, { caller, deadline });
        return {
          body: toList(
            (JSON.parse(r.itemsJson) as PageResultJson[]).map((p) => pageResultJson(p, urls)),
            r.page,
          ),
        };
      },
    },
    {
      method: 'get',
      path: '/v1/orgs/:organizationId/search',
      operationId: 'searchOrganizationContent',
      summary: "Search the organization's spaces the caller can read; results grouped per space, best first",
      tags: ['search'],
      params: { organizationId: ID_PARAM },
      query: SEARCH_QUERY,
      success: { status: 200, description: 'A page of spaces with their matching pages', schema: officialResponse('searchOrganizationContent') },
      async handler({ caller, deadline, params, query }) {
        const r = await clients.search.searchOrganization(
          { organizationId: params.organizationId, query: (query.query as string) ?? '', page: pageOf(query) },
          { caller, deadline },
        );
        return {
          body: toList(
            (JSON.parse(r.itemsJson) as SpaceResultJson[]).map((s) => spaceResultJson(s, urls)),
            r.page,
          ),
        };
      },
    },
    {
      method: 'post',
      path: '/admin/search/rebuild',
      operationId: 'rebuildSearchIndex',
      summary: 'Drop the search index and read every known space again from content (instance admins)',
      tags: ['admin'],
      body: { type: 'object', additionalProperties: false, properties: { spaces: { type: 'array', items: ID_PARAM, maxItems: 1000 } } },
      bodyOptional: true,
      success: {
        status: 200,
        description: 'How many spaces and pages were indexed',
        schema: { type: 'object', required: ['spaces', 'pages'], additionalProperties: false, properties: { spaces: { type: 'integer' }, pages: { type: 'integer' } } },
      },
      budgetMs: 600_000,
      async handler({ caller, deadline, body }) {
        const spaceIds = ((body ?? {}) as { spaces?: string[] }).spaces ?? [];
        return { body: await clients.search.rebuild({ spaceIds }, { caller, deadline }) };
      },
    },
  ];
}

export const searchGateway = defineGatewayModule({ service: 'search', connect: connectSearch, routes: (clients, context) => searchRoutes(clients, context) });
