import { LIST_QUERY, officialResponse, RouteSpec, toList } from '@bindery/gateway/http';
import type { ContentClients } from '@bindery/content/client';
import { CREATE_SPACE, MOVE, ORG_PARAM, SPACE_PARAM, TRANSFER, UPDATE_SPACE } from './content-schemas';
import { spaceJson, Urls } from './representations';
import { MoveBody, moveRequest, nullable, pageOf } from './request-mapping';

interface UpdateSpaceBody {
  title?: string;
  emoji?: string | null;
  icon?: string | null;
  defaultLevel?: string | null;
  editMode?: string;
}

/** /v1/orgs/{orgId}/spaces and /v1/spaces/{spaceId}…; who may do what is the content service's policy. */
export function spaceRoutes(spaces: ContentClients['spaces'], urls: Urls): RouteSpec[] {
  const created = (s: Parameters<typeof spaceJson>[0]) => {
    const json = spaceJson(s, urls);
    return { status: 201, body: json, headers: { Location: json.urls.location } };
  };
  return [
    {
      method: 'post',
      path: '/v1/orgs/:organizationId/spaces',
      operationId: 'createSpace',
      summary: 'Create an empty space in an organization or a collection (the create role in the organization, or on the parent collection)',
      tags: ['spaces'],
      params: ORG_PARAM,
      body: CREATE_SPACE,
      bodyOptional: true,
      success: { status: 201, description: 'The space', schema: officialResponse('createSpace') },
      refusals: [{ status: 400, description: '`parent` names no collection of this organization' }],
      idempotent: true,
      async handler({ caller, deadline, idempotencyKey, params, body }) {
        const b = (body ?? {}) as { title?: string; emoji?: string; parent?: string; editMode?: string };
        const space = await spaces.createSpace(
          { organizationId: params.organizationId, title: b.title, emoji: b.emoji, parent: b.parent, editMode: b.editMode },
          { caller, deadline, idempotencyKey },
        );
        return created(space);
      },
    },
    {
      method: 'get',
      path: '/v1/orgs/:organizationId/spaces',
      operationId: 'listSpacesInOrganizationById',
      summary: "List the organization's spaces the caller can read",
      tags: ['spaces'],
      params: ORG_PARAM,
      query: LIST_QUERY,
      success: { status: 200, description: 'A page of spaces', schema: officialResponse('listSpacesInOrganizationById') },
      async handler({ caller, deadline, params, query }) {
        const r = await spaces.listSpaces({ organizationId: params.organizationId, page: pageOf(query) }, { caller, deadline });
        return {
          body: toList(
            r.items.map((s) => spaceJson(s, urls)),
            r.page,
          ),
        };
      },
    },
    {
      method: 'get',
      path: '/v1/spaces/:spaceId',
      operationId: 'getSpaceById',
      summary: 'Get a space (readers of the space)',
      tags: ['spaces'],
      siteToken: true,
      params: SPACE_PARAM,
      query: { shareKey: { type: 'string', minLength: 1, maxLength: 512, description: 'The share key of a share-link site (accepted; sites are not served yet)' } },
      success: { status: 200, description: 'The space', schema: officialResponse('getSpaceById') },
      async handler({ caller, deadline, params, query }) {
        return { body: spaceJson(await spaces.getSpace({ spaceId: params.spaceId, shareKey: query.shareKey as string | undefined }, { caller, deadline }), urls) };
      },
    },
    {
      method: 'patch',
      path: '/v1/spaces/:spaceId',
      operationId: 'updateSpaceById',
      summary: 'Change the title, emoji or icon, default level or edit mode of a space (space admins)',
      tags: ['spaces'],
      params: SPACE_PARAM,
      body: UPDATE_SPACE,
      success: { status: 200, description: 'The updated space', schema: officialResponse('updateSpaceById') },
      async handler({ caller, deadline, params, body }) {
        const b = body as UpdateSpaceBody;
        const space = await spaces.updateSpace(
          {
            spaceId: params.spaceId,
            title: b.title,
            emoji: nullable(b.emoji),
            icon: nullable(b.icon),
            defaultLevel: nullable(b.defaultLevel),
            editMode: b.editMode,
          },
          { caller, deadline },
        );
        return { body: spaceJson(space, urls) };
      },
    },
    {
      method: 'delete',
      path: '/v1/spaces/:spaceId',
      operationId: 'deleteSpaceById',
      summary: 'Delete a space, restorable for 7 days (space admins); 204 when it was already deleted',
      tags: ['spaces'],
      params: SPACE_PARAM,
      success: { status: 205, description: 'The space was deleted' },
      alternatives: [{ status: 204, description: 'The space was already deleted (one that never existed, or that the caller cannot see, is a 404)' }],
      async handler({ caller, deadline, params }) {
        return (await spaces.deleteSpace({ spaceId: params.spaceId }, { caller, deadline })).deleted ? {} : { status: 204 };
      },
    },
    {
      method: 'post',
      path: '/v1/spaces/:spaceId/duplicate',
      operationId: 'duplicateSpace',
      summary: 'Copy a space next to it (readers of the space with the create role where the copy goes)',
      tags: ['spaces'],
      params: SPACE_PARAM,
      success: { status: 201, description: 'The copy', schema: officialResponse('duplicateSpace') },
      idempotent: true,
      async handler({ caller, deadline, idempotencyKey, params }) {
        return created(await spaces.duplicateSpace({ spaceId: params.spaceId }, { caller, deadline, idempotencyKey }));
      },
    },
    {
      method: 'post',
      path: '/v1/spaces/:spaceId/restore',
      operationId: 'restoreSpace',
      summary: 'Restore a space deleted less than 7 days ago (space admins)',
      tags: ['spaces'],
      params: SPACE_PARAM,
      success: { status: 200, description: 'The restored space', schema: officialResponse('restoreSpace') },
      refusals: [{ status: 400, description: 'The space is not deleted' }],
      async handler({ caller, deadline, params }) {
        return { body: spaceJson(await spaces.restoreSpace({ spaceId: params.spaceId }, { caller, deadline }), urls) };
      },
    },
    {
      method: 'post',
      path: '/v1/spaces/:spaceId/move',
      operationId: 'moveSpace',
      summary: 'Move a space to another collection or position (admins of the space with the create role in the target)',
      tags: ['spaces'],
      params: SPACE_PARAM,
      body: MOVE,
      success: { status: 200, description: 'The moved space', schema: officialResponse('moveSpace') },
      refusals: [{ status: 400, description: '`parent` names no collection of this organization; `position` names no item of the target' }],
      async handler({ caller, deadline, params, body }) {
        return { body: spaceJson(await spaces.moveSpace(moveRequest(params.spaceId, body as MoveBody), { caller, deadline }), urls) };
      },
    },
    {
      method: 'post',
      path: '/v1/spaces/:spaceId/transfer',
      operationId: 'transferSpace',
      summary: 'Move a space to another organization (admins of the space with the create role in both organizations)',
      tags: ['spaces'],
      params: SPACE_PARAM,
      body: TRANSFER,
      success: { status: 200, description: 'The transferred space', schema: officialResponse('transferSpace') },
      refusals: [{ status: 412, description: 'The space already belongs to that organization' }],
      async handler({ caller, deadline, params, body }) {
        const { organization } = body as { organization: string };
        return { body: spaceJson(await spaces.transferSpace({ id: params.spaceId, organizationId: organization }, { caller, deadline }), urls) };
      },
    },
  ];
}
