import { officialResponse, pageOf, RouteSpec, toList } from '@bindery/gateway/http';
import type { Urls } from '@bindery/gateway/identity-routes';
import type { SitesClients } from '@bindery/sites/client';
import { nullable, siteOf } from './section-routes';
import { sectionGroupJson } from './site-representations';
import {
  ADD_SECTION_GROUP,
  ADD_SECTION_TO_GROUP,
  GROUP_SECTION,
  MOVE_SECTION_GROUP,
  pointerOf,
  SECTION_GROUP,
  SHARED_LIST_QUERY,
  SITE,
  UPDATE_SECTION_GROUP,
} from './structure-schemas';

const BASE = '/v1/orgs/:organizationId/sites/:siteId/section-groups';

const locationOf = (urls: Urls, p: Record<string, string>, id: string) =>
  `${urls.publicUrl}/v1/orgs/${encodeURIComponent(p.organizationId)}/sites/${encodeURIComponent(p.siteId)}/section-groups/${encodeURIComponent(id)}`;

/** /v1/orgs/{organizationId}/sites/{siteId}/section-groups… */
export function sectionGroupRoutes(structure: SitesClients['structure'], urls: Urls): RouteSpec[] {
  return [
    {
      method: 'get',
      path: BASE,
      operationId: 'listSiteSectionGroups',
      summary: "The site's section groups by their place in its top level, each with its sections (readers, or anyone with an active share key of the published share-link site)",
      tags: ['sites'],
      params: SITE,
      query: SHARED_LIST_QUERY,
      success: { status: 200, description: 'A page of section groups', schema: officialResponse('listSiteSectionGroups') },
      async handler({ caller, deadline, params, query }) {
        const r = await structure.listSectionGroups({ ...siteOf(params), page: pageOf(query), shareKey: query.shareKey as string | undefined }, { caller, deadline });
        return {
          body: toList(
            r.items.map((g) => sectionGroupJson(g, urls, siteOf(params))),
            r.page,
          ),
        };
      },
    },
    {
      method: 'post',
      path: BASE,
      operationId: 'addSectionGroupToSite',
      summary: 'Add a section group where the first of its sections stood (else at the end), moving those sections into it (edit role)',
      tags: ['sites'],
      params: SITE,
      body: ADD_SECTION_GROUP,
      refusals: [{ status: 400, description: 'sections names a section that is not the site’s' }],
      success: { status: 201, description: 'The section group', schema: officialResponse('addSectionGroupToSite') },
      async handler({ caller, deadline, params, body }) {
        const b = body as { title: string; icon?: string | null; sections?: string[] };
        const g = await structure.createSectionGroup({ ...siteOf(params), title: b.title, icon: b.icon ?? undefined, sectionIds: b.sections ?? [] }, { caller, deadline });
        return { status: 201, body: sectionGroupJson(g, urls, siteOf(params)), headers: { Location: locationOf(urls, params, g.id) } };
      },
    },
    {
      method: 'patch',
      path: `${BASE}/:siteSectionGroupId`,
      operationId: 'updateSiteSectionGroupById',
      summary: "Change a section group's title or icon (edit role)",
      tags: ['sites'],
      params: SECTION_GROUP,
      body: UPDATE_SECTION_GROUP,
      success: { status: 200, description: 'The section group', schema: officialResponse('updateSiteSectionGroupById') },
      async handler({ caller, deadline, params, body }) {
        const b = body as { title?: string; icon?: string | null };
        const g = await structure.updateSectionGroup(
          { ...siteOf(params), sectionGroupId: params.siteSectionGroupId, title: b.title, icon: nullable(b.icon) },
          { caller, deadline },
        );
        return { body: sectionGroupJson(g, urls, siteOf(params)) };
      },
    },
    {
      method: 'delete',
      path: `${BASE}/:siteSectionGroupId`,
      operationId: 'deleteSiteSectionGroupById',
      summary: 'Delete a section group; its sections return to the top level where it stood (edit role)',
      tags: ['sites'],
      params: SECTION_GROUP,
      success: { status: 205, description: 'The section group was deleted' },
      alternatives: [{ status: 204, description: 'There was no such section group' }],
      async handler({ caller, deadline, params }) {
        return (await structure.deleteSectionGroup({ ...siteOf(params), id: params.siteSectionGroupId }, { caller, deadline })).deleted ? {} : { status: 204 };
      },
    },
    {
      method: 'post',
      path: `${BASE}/:siteSectionGroupId/sections`,
      operationId: 'addSectionToGroup',
      summary: 'Move a section into the group, at its end (edit role)',
      tags: ['sites'],
      params: SECTION_GROUP,
      body: ADD_SECTION_TO_GROUP,
      refusals: [{ status: 400, description: 'sectionId names no section of the site' }],
      success: { status: 201, description: 'The section group', schema: officialResponse('addSectionToGroup') },
      async handler({ caller, deadline, params, body }) {
        const g = await structure.addSectionToGroup(
          { ...siteOf(params), sectionGroupId: params.siteSectionGroupId, sectionId: (body as { sectionId: string }).sectionId },
          { caller, deadline },
        );
        return { status: 201, body: sectionGroupJson(g, urls, siteOf(params)), headers: { Location: locationOf(urls, params, g.id) } };
      },
    },
    {
      method: 'delete',
      path: `${BASE}/:siteSectionGroupId/sections/:siteSectionId`,
      operationId: 'removeSectionFromGroup',
      summary: 'Take a section out of the group, to the top level just after it (edit role)',
      tags: ['sites'],
      params: GROUP_SECTION,
      success: { status: 205, description: 'The section was taken out of the group' },
      alternatives: [{ status: 204, description: 'The section was not in the group' }],
      async handler({ caller, deadline, params }) {
        const r = await structure.removeSectionFromGroup({ ...siteOf(params), sectionGroupId: params.siteSectionGroupId, sectionId: params.siteSectionId }, { caller, deadline });
        return r.deleted ? {} : { status: 204 };
      },
    },
    {
      method: 'post',
      path: `${BASE}/:siteSectionGroupId/move`,
      operationId: 'moveSiteSectionGroup',
      summary: 'Move a section group before or after another top-level item, or to the end (deprecated: sortSiteStructure) (edit role)',
      tags: ['sites'],
      params: SECTION_GROUP,
      body: MOVE_SECTION_GROUP,
      bodyOptional: true,
      refusals: [{ status: 400, description: 'the position names an item that is not of the top level' }],
      success: { status: 200, description: 'The section group', schema: officialResponse('moveSiteSectionGroup') },
      async handler({ caller, deadline, params, body }) {
        const p = (body as { position?: { before?: { type: string; id: string }; after?: { type: string; id: string } } } | undefined)?.position;
        const g = await structure.moveSectionGroup(
          { ...siteOf(params), id: params.siteSectionGroupId, position: { before: pointerOf(p?.before), after: pointerOf(p?.after) } },
          { caller, deadline },
        );
        return { body: sectionGroupJson(g, urls, siteOf(params)) };
      },
    },
  ];
}
