import { ID_PARAM, LIST_QUERY, object, officialResponse, ROLE, ROLE_OR_GUEST, RouteSpec, toList } from '@bindery/gateway/http';
import type { IdentityClients } from '@bindery/identity/client';
import { identityMembersV1 as pb } from '@bindery/shared/contracts';
import { Urls, userJson } from './representations';

const MEMBER_PARAMS = { organizationId: ID_PARAM, userId: ID_PARAM };

export function memberJson(m: pb.Member, urls: Urls) {
  return {
    object: 'member',
    id: m.user!.id,
    role: m.role ?? null,
    user: userJson(m.user!, urls),
    disabled: m.disabled,
    joinedAt: m.joinedAt,
    ...(m.lastSeenAt ? { lastSeenAt: m.lastSeenAt } : {}),
    sso: m.sso,
    spaces: m.spaces,
    teams: m.teams,
  };
}

/** /v1/orgs/{orgId}/members… (member teams are served with the teams, member spaces by the content module). */
export function memberRoutes(clients: IdentityClients, urls: Urls): RouteSpec[] {
  const { members } = clients;
  return [
    {
      method: 'get',
      path: '/v1/orgs/:organizationId/members',
      operationId: 'listMembersInOrganizationById',
      summary: 'List the members of an organization',
      tags: ['members'],
      params: { organizationId: ID_PARAM },
      query: {
        ...LIST_QUERY,
        order: { type: 'string', enum: ['asc', 'desc'] },
        role: { anyOf: [ROLE, { type: 'string', enum: ['guest'] }] },
        search: { type: 'string', maxLength: 256 },
        sort: { type: 'string', enum: ['joinedAt', 'lastSeenAt'] },
      },
      success: { status: 200, description: 'A page of members', schema: officialResponse('listMembersInOrganizationById') },
      async handler({ caller, deadline, params, query }) {
        const role = query.role === undefined ? undefined : { value: query.role === 'guest' ? undefined : (query.role as string) };
        const r = await members.listMembers(
          {
            organizationId: params.organizationId,
            page: { page: (query.page as string) ?? '', limit: (query.limit as number) ?? 0 },
            order: (query.order as string) ?? '',
            role,
            search: (query.search as string) ?? '',
            sort: (query.sort as string) ?? '',
          },
          { caller, deadline },
        );
        return {
          body: toList(
            r.items.map((m) => memberJson(m, urls)),
            r.page,
          ),
        };
      },
    },
    {
      method: 'get',
      path: '/v1/orgs/:organizationId/members/:userId',
      operationId: 'getMemberInOrganizationById',
      summary: 'Get a member of an organization',
      tags: ['members'],
      params: MEMBER_PARAMS,
      success: { status: 200, description: 'The member', schema: officialResponse('getMemberInOrganizationById') },
      async handler({ caller, deadline, params }) {
        return { body: memberJson(await members.getMember({ organizationId: params.organizationId, userId: params.userId }, { caller, deadline }), urls) };
      },
    },
    {
      method: 'patch',
      path: '/v1/orgs/:organizationId/members/:userId',
      operationId: 'updateMemberInOrganizationById',
      summary: "Change a member's role (admins; nobody raises their own role; the last admin stays)",
      tags: ['members'],
      params: MEMBER_PARAMS,
      body: object({ role: ROLE_OR_GUEST }),
      success: { status: 200, description: 'The member', schema: officialResponse('updateMemberInOrganizationById') },
      async handler({ caller, deadline, params, body }) {
        const b = body as { role?: string | null };
        const role = b.role === undefined ? undefined : { value: b.role ?? undefined };
        return { body: memberJson(await members.updateMemberRole({ organizationId: params.organizationId, userId: params.userId, role }, { caller, deadline }), urls) };
      },
    },
    {
      method: 'delete',
      path: '/v1/orgs/:organizationId/members/:userId',
      operationId: 'removeMemberFromOrganizationById',
      summary: 'Remove a member (admins), or leave the organization; removing a non-member changes nothing',
      tags: ['members'],
      params: MEMBER_PARAMS,
      success: { status: 204, description: 'The member was removed from the organization, or was not a member' },
      async handler({ caller, deadline, params }) {
        await members.removeMember({ organizationId: params.organizationId, userId: params.userId }, { caller, deadline });
        return {};
      },
    },
    {
      method: 'post',
      path: '/v1/orgs/:organizationId/members/:userId/sso',
      operationId: 'setUserAsSSOMemberForOrganization',
      summary: 'Make a member an SSO member (admins)',
      tags: ['members'],
      params: MEMBER_PARAMS,
      success: { status: 200, description: 'The member', schema: officialResponse('setUserAsSSOMemberForOrganization') },
      async handler({ caller, deadline, params }) {
        return { body: memberJson(await members.setMemberSso({ organizationId: params.organizationId, userId: params.userId }, { caller, deadline }), urls) };
      },
    },
  ];
}
