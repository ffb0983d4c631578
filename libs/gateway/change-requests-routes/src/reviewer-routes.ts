import { LIST_QUERY, officialResponse, pageOf, RouteSpec, toList } from '@bindery/gateway/http';
import { Urls } from '@bindery/gateway/identity-routes';
import type { ChangeRequestsClients } from '@bindery/change-requests/client';
import type { IdentityClients } from '@bindery/identity/client';
import type { Caller } from '@bindery/platform/grpc';
import { changeRequestsV1 as pb } from '@bindery/shared/contracts';
import { CHANGE_REQUEST } from './change-request-schemas';
import { people } from '@bindery/gateway/change-request-json';
import { requestedReviewerJson, usersOfRequestedReviewer } from './review-representations';
import { REQUEST_REVIEWERS, REQUESTED_REVIEWER } from './review-schemas';

type Call = { caller: Caller; deadline: Date };
const ref = (p: Record<string, string>): pb.ChangeRequestRef => ({ spaceId: p.spaceId, changeRequest: p.changeRequestId });

/** /v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers… */
export function reviewerRoutes(reviewers: ChangeRequestsClients['reviewers'], identity: IdentityClients, urls: Urls): RouteSpec[] {
  const many = async (items: pb.RequestedReviewer[], call: Call) => {
    const user = await people(identity.identity, items.flatMap(usersOfRequestedReviewer), call, urls);
    return items.map((q) => requestedReviewerJson(q, user));
  };
  return [
    {
      method: 'get',
      path: '/v1/spaces/:spaceId/change-requests/:changeRequestId/requested-reviewers',
      operationId: 'getRequestedReviewersByChangeRequestId',
      summary: 'The members asked to review the change request, the longest waiting first (readers)',
      tags: ['change-requests'],
      params: CHANGE_REQUEST,
      query: LIST_QUERY,
      success: { status: 200, description: 'A page of requested reviewers', schema: officialResponse('getRequestedReviewersByChangeRequestId') },
      async handler({ caller, deadline, params, query }) {
        const r = await reviewers.listRequestedReviewers({ changeRequest: ref(params), page: pageOf(query) }, { caller, deadline });
        return { body: toList(await many(r.items, { caller, deadline }), r.page) };
      },
    },
    {
      method: 'post',
      path: '/v1/spaces/:spaceId/change-requests/:changeRequestId/requested-reviewers',
      operationId: 'requestReviewersForChangeRequest',
      summary: 'Ask members with the review role to review the change request, renewing earlier requests; subject renames it (editors; not merged)',
      tags: ['change-requests'],
      params: CHANGE_REQUEST,
      body: REQUEST_REVIEWERS,
      success: { status: 200, description: 'The requests made', schema: officialResponse('requestReviewersForChangeRequest') },
      refusals: [{ status: 400, description: 'A user named may not review the space (not a member with the review role on it)' }],
      async handler({ caller, deadline, params, body }) {
        const b = body as { users: string[]; subject?: string };
        const r = await reviewers.requestReviewers({ changeRequest: ref(params), users: b.users, subject: b.subject }, { caller, deadline });
        return { body: { users: await many(r.users, { caller, deadline }) } };
      },
    },
    {
      method: 'delete',
      path: '/v1/spaces/:spaceId/change-requests/:changeRequestId/requested-reviewers/:userId',
      operationId: 'removeRequestedReviewerFromChangeRequest',
      summary: 'No longer ask a member to review the change request (editors; not merged); 204 when they were not asked',
      tags: ['change-requests'],
      params: REQUESTED_REVIEWER,
      success: { status: 205, description: 'The reviewer is no longer asked to review' },
      alternatives: [{ status: 204, description: 'The user was not asked to review' }],
      async handler({ caller, deadline, params }) {
        return (await reviewers.removeRequestedReviewer({ changeRequest: ref(params), user: params.userId }, { caller, deadline })).deleted ? {} : { status: 204 };
      },
    },
  ];
}
