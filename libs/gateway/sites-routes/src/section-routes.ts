import { officialResponse, pageOf, RouteSpec, toList } from '@bindery/gateway/http';
import type { Urls } from '@bindery/gateway/identity-routes';
import type { SitesClients } from '@bindery/sites/client';
import { sectionJson } from './site-representations';
import { ADD_SECTION, MOVE_SECTION, pointerOf, SECTION, SHARED_LIST_QUERY, SITE, UPDATE_SECTION } from './structure-schemas';

const BASE = '/v1/orgs/:organizationId/sites/:siteId/sections';

/** A PATCH field that may be null: absent → unchanged, null → removed. */
export const nullable = (v: unknown) => (v === undefined ? undefined : v === null ? {} : { value: v as string });

export const siteOf = (p: Record<string, string>) => ({ organizationId: p.organizationId, siteId: p.siteId });

/** /v1/orgs/{organizationId}/sites/{siteId}/sections… */
export function sectionRoutes(structure: SitesClients['structure'], urls: Urls): RouteSpec[] {
  return [
    {
      method: 'get',
      path: BASE,
      operationId: 'listSiteSections',
      summary: "The site's sections by their order in their level, each with its site spaces (readers, or anyone with an active share key of the published share-link site)",
      tags: ['sites'],
      params: SITE,
      query: SHARED_LIST_QUERY,
      success: { status: 200, description: 'A page of sections', schema: officialResponse('listSiteSections') },
      async handler({ caller, deadline, params, query }) {
        const r = await structure.listSections({ ...siteOf(params), page: pageOf(query), shareKey: query.shareKey as string | undefined }, { caller, deadline });
        return {
          body: toList(
            r.items.map((s) => sectionJson(s, urls, siteOf(params))),
            r.page,
          ),
        };
      },
    },
    {
      method: 'post',
      path: BASE,
      operationId: 'addSectionToSite',
      summary: 'Add a section showing a space (title: the space’s unless given; path from the title); the first section is the default (edit role)',
      tags: ['sites'],
      params: SITE,
      body: ADD_SECTION,
      refusals: [{ status: 400, description: 'spaceId names no space of this organization that the caller can read' }],
      success: { status: 201, description: 'The section', schema: officialResponse('addSectionToSite') },
      async handler({ caller, deadline, params, body }) {
        const b = body as { spaceId: string; title?: string | null; icon?: string | null };
        const s = await structure.createSection({ ...siteOf(params), spaceId: b.spaceId, title: b.title ?? undefined, icon: b.icon ?? undefined }, { caller, deadline });
        const json = sectionJson(s, urls, siteOf(params));
        return { status: 201, body: json, headers: { Location: json.urls.location } };
      },
    },
    {
      method: 'patch',
      path: `${BASE}/:siteSectionId`,
      operationId: 'updateSiteSectionById',
      summary: 'Change a section: title, path (unique in the site), default site space, condition, icon, description (edit role)',
      tags: ['sites'],
      params: SECTION,
      body: UPDATE_SECTION,
      refusals: [{ status: 400, description: 'defaultSiteSpace is no site space of this section, or the condition is no expression of the condition language' }],
      success: { status: 200, description: 'The section', schema: officialResponse('updateSiteSectionById') },
      async handler({ caller, deadline, params, body }) {
        const b = body as Record<string, unknown>;
        const s = await structure.updateSection(
          {
            ...siteOf(params),
            sectionId: params.siteSectionId,
            title: b.title as string | undefined,
            path: b.path as string | undefined,
            defaultSiteSpace: b.defaultSiteSpace as string | undefined,
            condition: nullable(b.condition),
            icon: nullable(b.icon),
            description: nullable(b.description),
          },
          { caller, deadline },
        );
        return { body: sectionJson(s, urls, siteOf(params)) };
      },
    },
    {
      method: 'delete',
      path: `${BASE}/:siteSectionId`,
      operationId: 'deleteSiteSectionById',
      summary: 'Delete a section with its site spaces; the default moves to the first section left (edit role)',
      tags: ['sites'],
      params: SECTION,
      success: { status: 205, description: 'The section was deleted' },
      alternatives: [{ status: 204, description: 'There was no such section' }],
      async handler({ caller, deadline, params }) {
        return (await structure.deleteSection({ ...siteOf(params), id: params.siteSectionId }, { caller, deadline })).deleted ? {} : { status: 204 };
      },
    },
    {
      method: 'post',
      path: `${BASE}/:siteSectionId/move`,
      operationId: 'moveSiteSection',
      summary: 'Move a section before or after another item of its level, or to its end (deprecated: sortSiteStructure) (edit role)',
      tags: ['sites'],
      params: SECTION,
      body: MOVE_SECTION,
      bodyOptional: true,
      refusals: [{ status: 400, description: 'the position names an item that is not of the section’s level' }],
      success: { status: 200, description: 'The section', schema: officialResponse('moveSiteSection') },
      async handler({ caller, deadline, params, body }) {
        const p = (body as { position?: { before?: { type: string; siteSection: string }; after?: { type: string; siteSection: string } } } | undefined)?.position;
        const s = await structure.moveSection(
          { ...siteOf(params), id: params.siteSectionId, position: { before: pointerOf(p?.before), after: pointerOf(p?.after) } },
          { caller, deadline },
        );
        return { body: sectionJson(s, urls, siteOf(params)) };
      },
    },
  ];
}
