import { ID_PARAM, officialResponse, RouteSpec } from '@bindery/gateway/http';
import type { ContentClients } from '@bindery/content/client';
import type { ChangeRequestOf } from '@bindery/gateway/change-request-json';
import { semanticChangeJson } from './content-representations';
import type { Urls } from './representations';

const BOOL = (description: string) => ({ type: 'boolean', default: true, description });
const CHANGES_QUERY = {
  metadata: BOOL('accepted: the changes carry no git metadata'),
  computed: BOOL('accepted: no content here is computed'),
  limit: { type: 'integer', minimum: 1, maximum: 1000, default: 10, description: 'At most this many changes (the others are counted in `more`)' },
};
/** An absolute http(s) URL: no control characters or spaces (the service parses it and the outbound guard vets its host). */
const EMBED_QUERY = {
  url: { type: 'string', minLength: 8, maxLength: 2048, pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\u0000-\\u0020\\u007f]+$', description: 'The http(s) URL to preview' },
};

/**
 * Reads GitBook's renderer makes of a published space beside its pages (site tokens and readers):
 * what a revision changed, and the embed of an external URL its pages show. A merge revision's change
 * request is named (`mergedFrom`) to readers and site tokens alike: change-requests answers a site
 * token a merged change request of its spaces.
 */
export function rendererReadRoutes(content: ContentClients, urls: Urls, changeRequestOf: ChangeRequestOf): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/v1/spaces/:spaceId/revisions/:revisionId/changes',
      operationId: 'getRevisionSemanticChanges',
      summary: 'What a revision changed against its parent: pages and files created, edited, moved, deleted (readers, site tokens)',
      tags: ['content'],
      params: { spaceId: ID_PARAM, revisionId: ID_PARAM },
      query: CHANGES_QUERY,
      siteToken: true,
      success: { status: 200, description: 'The changes', schema: officialResponse('getRevisionSemanticChanges') },
      async handler({ caller, deadline, params, query }) {
        const r = await content.revisions.getRevisionChanges(
          { spaceId: params.spaceId, revisionId: params.revisionId, limit: (query.limit as number) ?? 10 },
          { caller, deadline },
        );
        const mergedFrom = r.mergedFrom ? await changeRequestOf(params.spaceId, r.mergedFrom, { caller, deadline }) : undefined;
        return { body: { changes: r.changes.map((c) => semanticChangeJson(c, urls)), ...(r.more ? { more: r.more } : {}), ...(mergedFrom ? { mergedFrom } : {}) } };
      },
    },
    {
      method: 'get',
      path: '/v1/spaces/:spaceId/embed',
      operationId: 'getEmbedByUrlInSpace',
      summary: 'The preview of an external URL (title, site, icon; the oEmbed html when the page offers one), fetched through the outbound guard (readers, site tokens)',
      tags: ['content'],
      params: { spaceId: ID_PARAM },
      query: EMBED_QUERY,
      requiredQuery: ['url'],
      siteToken: true,
      success: { status: 200, description: 'The embed', schema: officialResponse('getEmbedByUrlInSpace') },
      refusals: [{ status: 400, description: 'The url is not an http(s) URL, or names a loopback, private or otherwise non-public address (the host at most is named)' }],
      async handler({ caller, deadline, params, query }) {
        const embed = await content.embeds.getEmbed({ spaceId: params.spaceId, url: String(query.url) }, { caller, deadline });
        return { body: embed };
      },
    },
  ];
}
