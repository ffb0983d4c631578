import { ID_PARAM, LIST_QUERY, object, officialResponse, ROLE_OR_GUEST, RouteSpec, toList } from '@bindery/gateway/http';
import type { IdentityClients } from '@bindery/identity/client';
import { linkInviteJson } from './link-invite-representations';

const ORG_PARAM = { organizationId: ID_PARAM };
const INVITE_PARAMS = { organizationId: ID_PARAM, inviteId: ID_PARAM };

// The official bodies also allow `level` with a `space` or `collection` (content invites); this
// instance has organization invites only, so `role` is the one field.
const CREATE_LINK_INVITE = object({ role: ROLE_OR_GUEST }, ['role']);
const UPDATE_LINK_INVITE = object({ role: ROLE_OR_GUEST }, ['role']);

/**
 * /v1/orgs/{orgId}/link-invites… (admins), joining with an invite (POST /v1/orgs/{orgId}/invites/{inviteId},
 * where the official API puts it) and by e-mail domain (POST /v1/orgs/{orgId}/join).
 */
export function linkInviteRoutes(clients: IdentityClients): RouteSpec[] {
  const { linkInvites } = clients;
  return [
    {
      method: 'get',
      path: '/v1/orgs/:organizationId/link-invites',
      operationId: 'listOrganizationInviteLinks',
      summary: 'List the invite links of an organization (admins)',
      tags: ['organization-invites'],
      params: ORG_PARAM,
      query: LIST_QUERY,
      success: { status: 200, description: 'A page of invite links', schema: officialResponse('listOrganizationInviteLinks') },
      async handler({ caller, deadline, params, query }) {
        const r = await linkInvites.listLinkInvites(
          { organizationId: params.organizationId, page: { page: (query.page as string) ?? '', limit: (query.limit as number) ?? 0 } },
          { caller, deadline },
        );
        return { body: toList(r.items.map(linkInviteJson), r.page) };
      },
    },
    {
      method: 'post',
      path: '/v1/orgs/:organizationId/link-invites',
      operationId: 'createOrganizationInvite',
      summary: 'Create an invite link giving a role (admins)',
      tags: ['organization-invites'],
      params: ORG_PARAM,
      body: CREATE_LINK_INVITE,
      success: { status: 201, description: 'The invite link', schema: officialResponse('createOrganizationInvite') },
      async handler({ caller, deadline, params, body }) {
        const { role } = body as { role: string | null };
        const invite = await linkInvites.createLinkInvite({ organizationId: params.organizationId, role: { value: role ?? undefined } }, { caller, deadline });
        // No Location header: the invite id is a secret, and answering with it in the body is enough.
        return { status: 201, body: linkInviteJson(invite) };
      },
    },
    {
      method: 'get',
      path: '/v1/orgs/:organizationId/link-invites/:inviteId',
      operationId: 'getOrganizationInviteLink',
      summary: 'Get an invite link (admins)',
      tags: ['organization-invites'],
      params: INVITE_PARAMS,
      success: { status: 200, description: 'The invite link', schema: officialResponse('getOrganizationInviteLink') },
      async handler({ caller, deadline, params }) {
        return { body: linkInviteJson(await linkInvites.getLinkInvite({ organizationId: params.organizationId, inviteId: params.inviteId }, { caller, deadline })) };
      },
    },
    {
      method: 'patch',
      path: '/v1/orgs/:organizationId/link-invites/:inviteId',
      operationId: 'updateOrganizationInviteById',
      summary: 'Change the role an invite link gives (admins)',
      tags: ['organization-invites'],
      params: INVITE_PARAMS,
      body: UPDATE_LINK_INVITE,
      success: { status: 200, description: 'The updated invite link', schema: officialResponse('updateOrganizationInviteById') },
      async handler({ caller, deadline, params, body }) {
        const { role } = body as { role: string | null };
        const invite = await linkInvites.updateLinkInvite(
          { organizationId: params.organizationId, inviteId: params.inviteId, role: { value: role ?? undefined } },
          { caller, deadline },
        );
        return { body: linkInviteJson(invite) };
      },
    },
    {
      method: 'delete',
      path: '/v1/orgs/:organizationId/link-invites/:inviteId',
      operationId: 'deleteOrganizationInviteById',
      summary: 'Delete an invite link (admins); 204 when there was none',
      tags: ['organization-invites'],
      params: INVITE_PARAMS,
      success: { status: 205, description: 'The invite link was deleted' },
      alternatives: [{ status: 204, description: 'The invite link did not exist' }],
      async handler({ caller, deadline, params }) {
        return (await linkInvites.deleteLinkInvite({ organizationId: params.organizationId, inviteId: params.inviteId }, { caller, deadline })).deleted ? {} : { status: 204 };
      },
    },
    {
      method: 'post',
      path: '/v1/orgs/:organizationId/invites/:inviteId',
      operationId: 'joinOrganizationWithInvite',
      summary: "Join an organization with an invite link, with the invite's role (a member stays as they are)",
      tags: ['organization-invites'],
      params: INVITE_PARAMS,
      success: { status: 200, description: 'Joined, or already a member', schema: officialResponse('joinOrganizationWithInvite') },
      async handler({ caller, deadline, params }) {
        await linkInvites.joinWithLinkInvite({ organizationId: params.organizationId, inviteId: params.inviteId }, { caller, deadline });
        return { body: {} };
      },
    },
    {
      method: 'post',
      path: '/v1/orgs/:organizationId/join',
      operationId: 'joinOrganization',
      summary: "Join an organization using one of your e-mail address's domains, with its default role",
      tags: ['organizations'],
      params: ORG_PARAM,
      success: { status: 204, description: 'Joined, or already a member' },
      async handler({ caller, deadline, params }) {
        await linkInvites.joinByEmailDomain({ organizationId: params.organizationId }, { caller, deadline });
        return { status: 204 };
      },
    },
  ];
}
