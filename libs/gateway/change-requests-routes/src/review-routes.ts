import { officialResponse, pageOf, RouteSpec, toList } from '@bindery/gateway/http';
import type { Urls } from '@bindery/gateway/identity-routes';
import type { ChangeRequestsClients } from '@bindery/change-requests/client';
import type { IdentityClients } from '@bindery/identity/client';
import type { Caller } from '@bindery/platform/grpc';
import { bodyToMessage, changeRequestsV1 as pb } from '@bindery/shared/contracts';
import { CHANGE_REQUEST } from './change-request-schemas';
import { people } from '@bindery/gateway/change-request-json';
import { reviewJson, usersOfReview } from './review-representations';
import { REVIEW, REVIEW_QUERY, REVIEWS_QUERY, SUBMIT_REVIEW } from './review-schemas';

type Call = { caller: Caller; deadline: Date };
const ref = (p: Record<string, string>): pb.ChangeRequestRef => ({ spaceId: p.spaceId, changeRequest: p.changeRequestId });

/** /v1/spaces/{spaceId}/change-requests/{changeRequestId}/reviews… */
export function reviewRoutes(crs: ChangeRequestsClients['changeRequests'], identity: IdentityClients, urls: Urls): RouteSpec[] {
  const many = async (items: pb.Review[], spaceId: string, call: Call) => {
    const user = await people(identity.identity, items.flatMap(usersOfReview), call, urls);
    return items.map((r) => reviewJson(r, spaceId, user, urls));
  };
  const one = async (r: pb.Review, spaceId: string, call: Call) => (await many([r], spaceId, call))[0];
  return [
    {
      method: 'get',
      path: '/v1/spaces/:spaceId/change-requests/:changeRequestId/reviews',
      operationId: 'getReviewsByChangeRequestId',
      summary: 'The reviews of a change request in the order they were submitted; outdated: only superseded or only current ones (readers)',
      tags: ['change-requests'],
      params: CHANGE_REQUEST,
      query: REVIEWS_QUERY,
      success: { status: 200, description: 'A page of reviews', schema: officialResponse('getReviewsByChangeRequestId') },
      async handler({ caller, deadline, params, query }) {
        const r = await crs.listReviews(
          { ref: ref(params), outdated: query.outdated as boolean | undefined, format: (query.format as string) ?? 'document', page: pageOf(query) },
          { caller, deadline },
        );
        return { body: toList(await many(r.items, params.spaceId, { caller, deadline }), r.page) };
      },
    },
    {
      method: 'post',
      path: '/v1/spaces/:spaceId/change-requests/:changeRequestId/reviews',
      operationId: 'submitChangeRequestReview',
      summary: "Approve the change request's head or request changes, optionally with a comment (review role; not merged or archived)",
      tags: ['change-requests'],
      params: CHANGE_REQUEST,
      body: SUBMIT_REVIEW,
      success: { status: 201, description: 'The review', schema: officialResponse('submitChangeRequestReview') },
      async handler({ caller, deadline, params, body }) {
        const b = body as { status: string; comment?: Parameters<typeof bodyToMessage>[0] };
        const r = await crs.submitReview({ ref: ref(params), status: b.status, comment: b.comment ? bodyToMessage(b.comment) : undefined }, { caller, deadline });
        const json = await one(r, params.spaceId, { caller, deadline });
        return { status: 201, body: json, headers: { Location: json.urls.location } };
      },
    },
    {
      method: 'get',
      path: '/v1/spaces/:spaceId/change-requests/:changeRequestId/reviews/:reviewId',
      operationId: 'getChangeRequestReviewById',
      summary: 'A review of a change request (readers)',
      tags: ['change-requests'],
      params: REVIEW,
      query: REVIEW_QUERY,
      success: { status: 200, description: 'The review', schema: officialResponse('getChangeRequestReviewById') },
      async handler({ caller, deadline, params, query }) {
        const r = await crs.getReview({ ref: ref(params), reviewId: params.reviewId, format: (query.format as string) ?? 'document' }, { caller, deadline });
        return { body: await one(r, params.spaceId, { caller, deadline }) };
      },
    },
  ];
}
