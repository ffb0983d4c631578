import { defineGatewayModule, ID_PARAM, LIST_QUERY, officialResponse, pageOf, RouteSpec, toList, trimmedText } from '@bindery/gateway/http';
import type { Urls } from '@bindery/gateway/identity-routes';
import { RUN_JSON_SCHEMA, runJsonOf } from '@bindery/platform/runs';
import { connectSearch, SearchClients } from '@bindery/search/client';
import { pageResultJson, spaceResultJson } from './search-representations';

const SEARCH_QUERY = {
  ...LIST_QUERY,
  query: { ...trimmedText(1, 512), description: 'What to look for (not only white space): words (the last one also as a prefix), "phrases in quotes"' },
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
      requiredQuery: ['query'],
      success: { status: 200, description: 'A page of matching pages, best first', schema: officialResponse('searchSpaceContent') },
      async handler({ caller, deadline, params, query }) {
        const r = await clients.search.searchSpace({ spaceId: params.spaceId, query: (query.query as string) ?? '', page: pageOf(query) }, { caller, deadline });
        return {
          body: toList(
            r.pages.map((p) => pageResultJson(p, urls)),
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
      requiredQuery: ['query'],
      success: { status: 200, description: 'A page of spaces with their matching pages', schema: officialResponse('searchOrganizationContent') },
      async handler({ caller, deadline, params, query }) {
        const r = await clients.search.searchOrganization(
          { organizationId: params.organizationId, query: (query.query as string) ?? '', page: pageOf(query) },
          { caller, deadline },
        );
        return {
          body: toList(
            r.spaces.map((s) => spaceResultJson(s, urls)),
            r.page,
          ),
        };
      },
    },
    {
      method: 'post',
      path: '/admin/search/rebuild',
      operationId: 'rebuildSearchIndex',
      summary: 'Start a rebuild of the search index from content (instance admins); answers the run at once, to poll',
      tags: ['admin'],
      body: { type: 'object', additionalProperties: false, properties: { spaces: { type: 'array', items: ID_PARAM, maxItems: 1000 } } },
      bodyOptional: true,
      success: {
        status: 202,
        description: 'The rebuild run, accepted (pending): poll /admin/search/rebuilds/{runId}; once completed its result holds the spaces and pages indexed',
        schema: RUN_JSON_SCHEMA,
      },
      async handler({ caller, deadline, body }) {
        const spaceIds = ((body ?? {}) as { spaces?: string[] }).spaces ?? [];
        const { run } = await clients.search.rebuild({ spaceIds }, { caller, deadline });
        return { body: runJsonOf(run!) };
      },
    },
    {
      method: 'get',
      path: '/admin/search/rebuilds/:runId',
      operationId: 'getSearchIndexRebuild',
      summary: 'A rebuild run of the search index: its status, progress, result or reason (instance admins)',
      tags: ['admin'],
      params: { runId: ID_PARAM },
      success: { status: 200, description: 'The rebuild run', schema: RUN_JSON_SCHEMA },
      async handler({ caller, deadline, params }) {
        return { body: runJsonOf(await clients.search.getRebuild({ runId: params.runId }, { caller, deadline })) };
      },
    },
    {
      method: 'post',
      path: '/admin/search/rebuilds/:runId/cancel',
      operationId: 'cancelSearchIndexRebuild',
      summary: 'Cancel a rebuild run (instance admins): a pending one at once, a running one within a heartbeat; a finished one is answered as it is',
      tags: ['admin'],
      params: { runId: ID_PARAM },
      success: { status: 200, description: 'The rebuild run as it now stands', schema: RUN_JSON_SCHEMA },
      async handler({ caller, deadline, params }) {
        return { body: runJsonOf(await clients.search.cancelRebuild({ runId: params.runId }, { caller, deadline })) };
      },
    },
  ];
}

export const searchGateway = defineGatewayModule({ service: 'search', connect: connectSearch, routes: (clients, context) => searchRoutes(clients, context) });
export { spaceResultJson, pageResultJson } from './search-representations';
