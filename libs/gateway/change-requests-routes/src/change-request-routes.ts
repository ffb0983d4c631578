import { officialResponse, pageOf, RouteSpec, toList } from '@bindery/gateway/http';
import type { Urls } from '@bindery/gateway/identity-routes';
import type { ChangeRequestsClients } from '@bindery/change-requests/client';
import type { IdentityClients } from '@bindery/identity/client';
import type { Caller } from '@bindery/platform/grpc';
import { changeRequestsV1 as pb, documentToMessage, type JsonObject } from '@bindery/shared/contracts';
import {
  CHANGE_REQUEST,
  CHANGES_QUERY,
  COMPAT_QUERY,
  CREATE_CHANGE_REQUEST,
  ORG_LIST_QUERY,
  SPACE,
  SPACE_LIST_QUERY,
  UPDATE_CHANGE_REQUEST,
  UPDATE_CONTENT,
} from './change-request-schemas';
import { semanticChangeJson, withDownloadUrl } from '@bindery/gateway/content-routes';
import { officialFile, officialUpdateChange } from '@bindery/content/client';
import { changeRequestJson, people, usersOfChangeRequest } from '@bindery/gateway/change-request-json';

type Call = { caller: Caller; deadline: Date };

const ORG = { organizationId: { type: 'string', minLength: 1, maxLength: 128 } };
const ref = (p: Record<string, string>): pb.ChangeRequestRef => ({ spaceId: p.spaceId, changeRequest: p.changeRequestId });

/** /v1/spaces/{spaceId}/change-requests… and /v1/orgs/{organizationId}/change-requests. */
export function changeRequestRoutes(crs: ChangeRequestsClients['changeRequests'], identity: IdentityClients, urls: Urls): RouteSpec[] {
  const one = async (cr: pb.ChangeRequest, call: Call) => changeRequestJson(cr, await people(identity.identity, usersOfChangeRequest(cr), call, urls), urls);
  const many = async (items: pb.ChangeRequest[], call: Call) => {
    const user = await people(identity.identity, items.flatMap(usersOfChangeRequest), call, urls);
    return items.map((cr) => changeRequestJson(cr, user, urls));
  };
  return [
    {
      method: 'post',
      path: '/v1/spaces/:spaceId/change-requests',
      operationId: 'createChangeRequest',
      summary: "Open a change request on the space's current revision (editors)",
      tags: ['change-requests'],
      params: SPACE,
      body: CREATE_CHANGE_REQUEST,
      bodyOptional: true,
      success: { status: 201, description: 'The change request', schema: officialResponse('createChangeRequest') },
      idempotent: true,
      async handler({ caller, deadline, idempotencyKey, params, body }) {
        const b = (body ?? {}) as { subject?: string };
        const cr = await crs.createChangeRequest({ spaceId: params.spaceId, subject: b.subject }, { caller, deadline, idempotencyKey });
        const json = await one(cr, { caller, deadline });
        return { status: 201, body: json, headers: { Location: json.urls.location } };
      },
    },
    {
      method: 'get',
      path: '/v1/spaces/:spaceId/change-requests',
      operationId: 'listChangeRequestsForSpace',
      summary: "The space's change requests, newest first (readers)",
      tags: ['change-requests'],
      params: SPACE,
      query: SPACE_LIST_QUERY,
      success: { status: 200, description: 'A page of change requests', schema: officialResponse('listChangeRequestsForSpace') },
      async handler({ caller, deadline, params, query }) {
        const r = await crs.listChangeRequests(
          {
            spaceId: params.spaceId,
            organizationId: '',
            statuses: query.status ? [query.status as string] : [],
            creator: (query.creator as string) ?? '',
            contributor: (query.contributor as string) ?? '',
            requestedReviewer: (query.requestedReviewer as string) ?? '',
            space: '',
            orderBy: (query.orderBy as string) ?? '',
            page: pageOf(query),
          },
          { caller, deadline },
        );
        return { body: toList(await many(r.items, { caller, deadline }), r.page) };
      },
    },
    {
      method: 'get',
      path: '/v1/orgs/:organizationId/change-requests',
      operationId: 'listChangeRequestsForOrganization',
      summary: 'The change requests of the spaces of the organization the caller can read, newest first (members)',
      tags: ['change-requests'],
      params: ORG,
      query: ORG_LIST_QUERY,
      success: { status: 200, description: 'A page of change requests', schema: officialResponse('listChangeRequestsForOrganization') },
      async handler({ caller, deadline, params, query }) {
        const status = query.status === undefined ? [] : Array.isArray(query.status) ? (query.status as string[]) : [query.status as string];
        const r = await crs.listChangeRequests(
          {
            spaceId: '',
            organizationId: params.organizationId,
            statuses: status,
            creator: (query.creator as string) ?? '',
            contributor: (query.contributor as string) ?? '',
            requestedReviewer: (query.requestedReviewer as string) ?? '',
            space: (query.space as string) ?? '',
            orderBy: (query.orderBy as string) ?? '',
            page: pageOf(query),
          },
          { caller, deadline },
        );
        return { body: toList(await many(r.items, { caller, deadline }), r.page) };
      },
    },
    {
      method: 'get',
      path: '/v1/spaces/:spaceId/change-requests/:changeRequestId',
      operationId: 'getChangeRequestById',
      summary: 'A change request by id or by number (readers)',
      tags: ['change-requests'],
      params: CHANGE_REQUEST,
      success: { status: 200, description: 'The change request', schema: officialResponse('getChangeRequestById') },
      async handler({ caller, deadline, params }) {
        return { body: await one(await crs.getChangeRequest(ref(params), { caller, deadline }), { caller, deadline }) };
      },
    },
    {
      method: 'patch',
      path: '/v1/spaces/:spaceId/change-requests/:changeRequestId',
      operationId: 'updateChangeRequestById',
      summary: 'Change the subject, description or status (draft, open, archived) of a change request that is not merged (editors)',
      tags: ['change-requests'],
      params: CHANGE_REQUEST,
      body: UPDATE_CHANGE_REQUEST,
      success: { status: 200, description: 'The change request', schema: officialResponse('updateChangeRequestById') },
      async handler({ caller, deadline, params, body }) {
        const b = body as { subject?: string; description?: JsonObject | null; status?: string };
        const cr = await crs.updateChangeRequest(
          {
            ref: ref(params),
            subject: b.subject,
            description: b.description ? documentToMessage(b.description) : undefined,
            clearDescription: b.description === null,
            status: b.status,
          },
          { caller, deadline },
        );
        return { body: await one(cr, { caller, deadline }) };
      },
    },
    {
      method: 'post',
      path: '/v1/spaces/:spaceId/change-requests/:changeRequestId/content',
      operationId: 'updateChangeRequestContent',
      summary: 'Apply up to 50 content changes to the change request, all or nothing (editors; not merged or archived)',
      tags: ['change-requests'],
      params: CHANGE_REQUEST,
      query: COMPAT_QUERY,
      body: UPDATE_CONTENT,
      success: {
        status: 200,
        description: 'The change request (compat=false: with the affected pages and inserted files)',
        schema: officialResponse('updateChangeRequestContent'),
      },
      refusals: [
        {
          status: 400,
          description:
            'A change names a page, parent, revision or block the content does not have, a slug a sibling has, a move into the page itself, or a file that cannot be fetched',
        },
      ],
      async handler({ caller, deadline, params, query, body }) {
        const r = await crs.updateContent({ ref: ref(params), changesJson: JSON.stringify((body as { changes: unknown[] }).changes) }, { caller, deadline });
        const cr = await one(r.changeRequest!, { caller, deadline });
        if (query.compat !== false) return { body: cr };
        const insertedFiles = r.insertedFiles.map((f) => withDownloadUrl(officialFile(f), urls));
        // each affected page names where its content is read: the change request's page
        const pageUrl = (id: string) => `${cr.urls.location}/content/page/${encodeURIComponent(id)}`;
        const changes = r.changes.map(officialUpdateChange).map((c) => (typeof c.page === 'object' ? { ...c, page: { ...c.page, urls: { location: pageUrl(c.page.id) } } } : c));
        return { body: { changeRequest: cr, changes, insertedFiles } };
      },
    },
    {
      method: 'post',
      path: '/v1/spaces/:spaceId/change-requests/:changeRequestId/update',
      operationId: 'updateChangeRequest',
      summary: "Bring the change request up to date with the space's current revision (editors); overlapping edits answer conflicts and change nothing",
      tags: ['change-requests'],
      params: CHANGE_REQUEST,
      success: { status: 200, description: 'The resulting head, or conflicts', schema: officialResponse('updateChangeRequest') },
      async handler({ caller, deadline, params }) {
        const r = await crs.bringUpToDate(ref(params), { caller, deadline });
        return { body: { revision: r.revision, result: r.result } };
      },
    },
    {
      method: 'post',
      path: '/v1/spaces/:spaceId/change-requests/:changeRequestId/merge',
      operationId: 'mergeChangeRequest',
      summary: 'Merge the change request into the space by three-way merge (review role; not on a locked space); overlapping edits answer conflicts and change nothing',
      tags: ['change-requests'],
      params: CHANGE_REQUEST,
      success: { status: 200, description: "The space's new revision, or conflicts", schema: officialResponse('mergeChangeRequest') },
      refusals: [
        {
          status: 429,
          description:
            'Other merges into the space are running and this one could not start within the request budget (merges into one space run one at a time, in order); send it again after Retry-After seconds',
        },
      ],
      idempotent: true,
      async handler({ caller, deadline, idempotencyKey, params }) {
        const r = await crs.merge(ref(params), { caller, deadline, idempotencyKey });
        return { body: { revision: r.revision, result: r.result } };
      },
    },
    {
      method: 'get',
      path: '/v1/spaces/:spaceId/change-requests/:changeRequestId/changes',
      operationId: 'getChangeRequestChanges',
      summary: 'What the change request changes: pages and files created, edited, moved, deleted (readers)',
      tags: ['change-requests'],
      params: CHANGE_REQUEST,
      query: CHANGES_QUERY,
      success: { status: 200, description: 'The changes', schema: officialResponse('getChangeRequestChanges') },
      async handler({ caller, deadline, params, query }) {
        const r = await crs.listChanges({ ref: ref(params), limit: (query.limit as number) ?? 10 }, { caller, deadline });
        return {
          body: {
            changes: r.changes.map((c) => semanticChangeJson(c, urls)),
            ...(r.more ? { more: r.more } : {}),
            ...(r.mergedFrom ? { mergedFrom: await one(r.mergedFrom, { caller, deadline }) } : {}),
          },
        };
      },
    },
  ];
}
