import { ID_PARAM, LIST_QUERY, officialResponse, RouteSpec, toList } from '@bindery/gateway/http';
import type { ContentClients } from '@bindery/content/client';
import type { IdentityClients } from '@bindery/identity/client';
import { ORDER } from './content-schemas';
import { memberSpaceJson, Urls } from './representations';
import { pageOf } from './request-mapping';

/** GET /v1/orgs/{orgId}/members/{userId}/spaces: identity says who may see the member, content which spaces they reach. */
export function memberSpaceRoutes(spaces: ContentClients['spaces'], members: IdentityClients['members'], urls: Urls): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/v1/orgs/:organizationId/members/:userId/spaces',
      operationId: 'listSpacesForOrganizationMember',
      summary: 'List the spaces a member can access and their role in each (whoever may see the member: non-guest members, and the member themselves)',
      tags: ['members'],
      params: { organizationId: ID_PARAM, userId: ID_PARAM },
      query: { ...LIST_QUERY, order: ORDER },
      success: { status: 200, description: 'A page of space permissions', schema: officialResponse('listSpacesForOrganizationMember') },
      async handler({ caller, deadline, params, query }) {
        // Whether the caller may see this member is identity's decision, taken first (404/403 as for the member).
        await members.getMember({ organizationId: params.organizationId, userId: params.userId }, { caller, deadline });
        const r = await spaces.listMemberSpaces(
          { organizationId: params.organizationId, userId: params.userId, page: pageOf(query), order: (query.order as string) ?? '' },
          { caller, deadline },
        );
        return {
          body: toList(
            r.items.map((m) => memberSpaceJson(m, urls)),
            r.page,
          ),
        };
      },
    },
  ];
}
