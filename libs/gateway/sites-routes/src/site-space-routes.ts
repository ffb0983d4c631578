import { officialResponse, pageOf, RouteSpec, toList } from '@bindery/gateway/http';
import type { Urls } from '@bindery/gateway/identity-routes';
import type { SitesClients } from '@bindery/sites/client';
import { nullable, siteOf } from './section-routes';
import { siteSpaceJson } from './site-representations';
import { ADD_SITE_SPACE, MOVE_SITE_SPACE, pointerOf, SITE, SITE_SPACE, SITE_SPACES_QUERY, UPDATE_SITE_SPACE } from './structure-schemas';

const BASE = '/v1/orgs/:organizationId/sites/:siteId/site-spaces';

/** /v1/orgs/{organizationId}/sites/{siteId}/site-spaces… */
export function siteSpaceRoutes(structure: SitesClients['structure'], urls: Urls): RouteSpec[] {
  return [
    {
      method: 'get',
      path: BASE,
      operationId: 'listSiteSpaces',
      summary:
        "The site's site spaces by their order in their section; default: only the default ones, or only the others (readers, or anyone with an active share key of the published share-link site)",
      description: 'A site space whose space the caller cannot read is left out (count counts the site’s shown site spaces).',
      tags: ['sites'],
      params: SITE,
      query: SITE_SPACES_QUERY,
      success: { status: 200, description: 'A page of site spaces', schema: officialResponse('listSiteSpaces') },
      async handler({ caller, deadline, params, query }) {
        const r = await structure.listSiteSpaces(
          { ...siteOf(params), page: pageOf(query), shareKey: query.shareKey as string | undefined, default: query.default as boolean | undefined },
          { caller, deadline },
        );
        return {
          body: toList(
            r.items.map((ss) => siteSpaceJson(ss, urls, siteOf(params))),
            r.page,
          ),
        };
      },
    },
    {
      method: 'post',
      path: BASE,
      operationId: 'addSpaceToSite',
      summary: 'Add a site space showing a space, to the given section, else the default section, else the root (path from the space’s title) (edit role)',
      tags: ['sites'],
      params: SITE,
      body: ADD_SITE_SPACE,
      refusals: [{ status: 400, description: 'spaceId names no space of this organization the caller can read, or sectionId no section of the site' }],
      success: { status: 201, description: 'The site space', schema: officialResponse('addSpaceToSite') },
      async handler({ caller, deadline, params, body }) {
        const b = body as { spaceId: string; sectionId?: string };
        const ss = await structure.addSiteSpace({ ...siteOf(params), spaceId: b.spaceId, sectionId: b.sectionId }, { caller, deadline });
        const json = siteSpaceJson(ss, urls, siteOf(params));
        return { status: 201, body: json, headers: { Location: json.urls.location } };
      },
    },
    {
      method: 'patch',
      path: `${BASE}/:siteSpaceId`,
      operationId: 'updateSiteSpaceById',
      summary: 'Change a site space: path (unique in its section), condition, the space it shows (edit role)',
      tags: ['sites'],
      params: SITE_SPACE,
      body: UPDATE_SITE_SPACE,
      refusals: [{ status: 400, description: 'the condition is no expression of the condition language, or spaceId names no space the caller can read' }],
      success: { status: 200, description: 'The site space', schema: officialResponse('updateSiteSpaceById') },
      async handler({ caller, deadline, params, body }) {
        const b = body as { path?: string; condition?: string | null; spaceId?: string };
        const ss = await structure.updateSiteSpace(
          { ...siteOf(params), siteSpaceId: params.siteSpaceId, path: b.path, condition: nullable(b.condition), spaceId: b.spaceId },
          { caller, deadline },
        );
        return { body: siteSpaceJson(ss, urls, siteOf(params)) };
      },
    },
    {
      method: 'delete',
      path: `${BASE}/:siteSpaceId`,
      operationId: 'deleteSiteSpaceById',
      summary: 'Delete a site space; the default of its section moves to the first one left (edit role)',
      tags: ['sites'],
      params: SITE_SPACE,
      success: { status: 205, description: 'The site space was deleted' },
      alternatives: [{ status: 204, description: 'There was no such site space' }],
      async handler({ caller, deadline, params }) {
        return (await structure.deleteSiteSpace({ ...siteOf(params), id: params.siteSpaceId }, { caller, deadline })).deleted ? {} : { status: 204 };
      },
    },
    {
      method: 'post',
      path: `${BASE}/:siteSpaceId/move`,
      operationId: 'moveSiteSpace',
      summary: 'Move a site space before or after another of its section, or to its end (deprecated: sortSiteStructure) (edit role)',
      tags: ['sites'],
      params: SITE_SPACE,
      body: MOVE_SITE_SPACE,
      bodyOptional: true,
      refusals: [{ status: 400, description: 'the position names a site space of another section' }],
      success: { status: 200, description: 'The site space', schema: officialResponse('moveSiteSpace') },
      async handler({ caller, deadline, params, body }) {
        const p = (body as { position?: { before?: { type: string; siteSpace: string }; after?: { type: string; siteSpace: string } } } | undefined)?.position;
        const ss = await structure.moveSiteSpace(
          { ...siteOf(params), id: params.siteSpaceId, position: { before: pointerOf(p?.before), after: pointerOf(p?.after) } },
          { caller, deadline },
        );
        return { body: siteSpaceJson(ss, urls, siteOf(params)) };
      },
    },
  ];
}
