import { LIST_QUERY, officialResponse, RouteSpec, toList } from '@bindery/gateway/http';
import type { ContentClients } from '@bindery/content/client';
import { COLLECTION_PARAM, COLLECTIONS_QUERY, CREATE_COLLECTION, MOVE, ORG_PARAM, TRANSFER, UPDATE_COLLECTION } from './content-schemas';
import { collectionJson, spaceJson, Urls } from './representations';
import { MoveBody, moveRequest, nullable, pageOf } from './request-mapping';

/** /v1/orgs/{orgId}/collections and /v1/collections/{collectionId}…; who may do what is the content service's policy. */
export function collectionRoutes(collections: ContentClients['collections'], urls: Urls): RouteSpec[] {
  return [
    {
      method: 'post',
      path: '/v1/orgs/:organizationId/collections',
      operationId: 'createCollection',
      summary: 'Create a collection in an organization or a collection (the create role in the organization, or on the parent collection)',
      tags: ['collections'],
      params: ORG_PARAM,
      body: CREATE_COLLECTION,
      bodyOptional: true,
      success: { status: 201, description: 'The collection', schema: officialResponse('createCollection') },
      refusals: [{ status: 400, description: '`parent` names no collection of this organization' }],
      idempotent: true,
      async handler({ caller, deadline, idempotencyKey, params, body }) {
        const b = (body ?? {}) as { title?: string; parent?: string };
        const collection = await collections.createCollection({ organizationId: params.organizationId, title: b.title, parent: b.parent }, { caller, deadline, idempotencyKey });
        const json = collectionJson(collection, urls);
        return { status: 201, body: json, headers: { Location: json.urls.location } };
      },
    },
    {
      method: 'get',
      path: '/v1/orgs/:organizationId/collections',
      operationId: 'listCollectionsInOrganizationById',
      summary: "List the organization's collections the caller can read (nested=false: the top level only)",
      tags: ['collections'],
      params: ORG_PARAM,
      query: COLLECTIONS_QUERY,
      success: { status: 200, description: 'A page of collections', schema: officialResponse('listCollectionsInOrganizationById') },
      async handler({ caller, deadline, params, query }) {
        // Query values are coerced by validation ("false" → false); absent means the spec's default, true.
        const r = await collections.listCollections({ organizationId: params.organizationId, page: pageOf(query), nested: query.nested !== false }, { caller, deadline });
        return {
          body: toList(
            r.items.map((c) => collectionJson(c, urls)),
            r.page,
          ),
        };
      },
    },
    {
      method: 'get',
      path: '/v1/collections/:collectionId',
      operationId: 'getCollectionById',
      summary: 'Get a collection (readers of the collection)',
      tags: ['collections'],
      params: COLLECTION_PARAM,
      success: { status: 200, description: 'The collection', schema: officialResponse('getCollectionById') },
      async handler({ caller, deadline, params }) {
        return { body: collectionJson(await collections.getCollection({ collectionId: params.collectionId }, { caller, deadline }), urls) };
      },
    },
    {
      method: 'patch',
      path: '/v1/collections/:collectionId',
      operationId: 'updateCollectionById',
      summary: 'Change the title, description or default level of a collection (collection admins)',
      tags: ['collections'],
      params: COLLECTION_PARAM,
      body: UPDATE_COLLECTION,
      success: { status: 200, description: 'The updated collection', schema: officialResponse('updateCollectionById') },
      async handler({ caller, deadline, params, body }) {
        const b = body as { title?: string; description?: string | null; defaultLevel?: string | null };
        const collection = await collections.updateCollection(
          { collectionId: params.collectionId, title: b.title, description: nullable(b.description), defaultLevel: nullable(b.defaultLevel) },
          { caller, deadline },
        );
        return { body: collectionJson(collection, urls) };
      },
    },
    {
      method: 'delete',
      path: '/v1/collections/:collectionId',
      operationId: 'deleteCollectionById',
      summary: 'Delete a collection and everything in it, each space restorable for 7 days (collection admins); 204 when it was already deleted',
      tags: ['collections'],
      params: COLLECTION_PARAM,
      success: { status: 205, description: 'The collection was deleted' },
      alternatives: [{ status: 204, description: 'The collection was already deleted (one that never existed, or that the caller cannot see, is a 404)' }],
      async handler({ caller, deadline, params }) {
        return (await collections.deleteCollection({ collectionId: params.collectionId }, { caller, deadline })).deleted ? {} : { status: 204 };
      },
    },
    {
      method: 'get',
      path: '/v1/collections/:collectionId/spaces',
      operationId: 'listSpacesInCollectionById',
      summary: "List a collection's spaces the caller can read (readers of the collection)",
      tags: ['collections'],
      params: COLLECTION_PARAM,
      query: LIST_QUERY,
      success: { status: 200, description: 'A page of spaces', schema: officialResponse('listSpacesInCollectionById') },
      async handler({ caller, deadline, params, query }) {
        const r = await collections.listCollectionSpaces({ collectionId: params.collectionId, page: pageOf(query) }, { caller, deadline });
        return {
          body: toList(
            r.items.map((s) => spaceJson(s, urls)),
            r.page,
          ),
        };
      },
    },
    {
      method: 'post',
      path: '/v1/collections/:collectionId/move',
      operationId: 'moveCollection',
      summary: 'Move a collection to another collection or position (admins of the collection with the create role in the target)',
      tags: ['collections'],
      params: COLLECTION_PARAM,
      body: MOVE,
      success: { status: 200, description: 'The moved collection', schema: officialResponse('moveCollection') },
      refusals: [
        { status: 400, description: '`parent` names no collection of this organization, or the collection itself or one inside it; `position` names no item of the target' },
      ],
      async handler({ caller, deadline, params, body }) {
        return { body: collectionJson(await collections.moveCollection(moveRequest(params.collectionId, body as MoveBody), { caller, deadline }), urls) };
      },
    },
    {
      method: 'post',
      path: '/v1/collections/:collectionId/transfer',
      operationId: 'transferCollection',
      summary: 'Move a collection and its content to another organization (admins of the collection with the create role in both organizations)',
      tags: ['collections'],
      params: COLLECTION_PARAM,
      body: TRANSFER,
      success: { status: 200, description: 'The transferred collection', schema: officialResponse('transferCollection') },
      refusals: [{ status: 412, description: 'The collection already belongs to that organization' }],
      async handler({ caller, deadline, params, body }) {
        const { organization } = body as { organization: string };
        return { body: collectionJson(await collections.transferCollection({ id: params.collectionId, organizationId: organization }, { caller, deadline }), urls) };
      },
    },
  ];
}
