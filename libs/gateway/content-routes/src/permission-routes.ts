import { ID_PARAM, JsonSchema, LIST_QUERY, officialResponse, RouteSpec, toList } from '@bindery/gateway/http';
import { teamJson, userJson } from '@bindery/gateway/identity-routes';
import type { ContentClients } from '@bindery/content/client';
import type { IdentityClients } from '@bindery/identity/client';
import { contentPermissionsV1 as pb } from '@bindery/shared/contracts';
import { AGGREGATE_QUERY, INVITE, UPDATE_GRANT } from './content-schemas';
import { teamsById, usersById } from './principals';
import { Urls } from './representations';
import { Call, pageOf } from './request-mapping';

/** What differs between a space's permission routes and a collection's. */
interface PermissionTarget {
  kind: 'space' | 'collection';
  /** express path of the space or collection, e.g. /v1/spaces/:spaceId */
  path: string;
  param: 'spaceId' | 'collectionId';
  tag: string;
  operationIds: { invite: string; updateUser: string; updateTeam: string; removeUser: string; removeTeam: string };
  /** the official list responses (literal officialResponse calls: the vendoring script finds them) */
  lists: { users: [string, JsonSchema]; teams: [string, JsonSchema]; aggregate: [string, JsonSchema] };
  /** the organization the space or collection is in (its teams are that organization's); needs read on it */
  organizationOf(id: string, call: Call): Promise<string>;
}

function targets(content: ContentClients): PermissionTarget[] {
  return [
    {
      kind: 'space',
      path: '/v1/spaces/:spaceId',
      param: 'spaceId',
      tag: 'space-permissions',
      operationIds: {
        invite: 'inviteToSpace',
        updateUser: 'updateUserPermissionInSpace',
        updateTeam: 'updateTeamPermissionInSpace',
        removeUser: 'removeUserFromSpace',
        removeTeam: 'removeTeamFromSpace',
      },
      lists: {
        users: ['listUserPermissionsInSpace', officialResponse('listUserPermissionsInSpace')],
        teams: ['listTeamPermissionsInSpace', officialResponse('listTeamPermissionsInSpace')],
        aggregate: ['listPermissionsAggregateInSpace', officialResponse('listPermissionsAggregateInSpace')],
      },
      organizationOf: async (spaceId, call) => (await content.spaces.getSpace({ spaceId }, call)).organization,
    },
    {
      kind: 'collection',
      path: '/v1/collections/:collectionId',
      param: 'collectionId',
      tag: 'collection-permissions',
      operationIds: {
        invite: 'inviteToCollection',
        updateUser: 'updateUserPermissionInCollection',
        updateTeam: 'updateTeamPermissionInCollection',
        removeUser: 'removeUserFromCollection',
        removeTeam: 'removeTeamFromCollection',
      },
      lists: {
        users: ['listUserPermissionsInCollection', officialResponse('listUserPermissionsInCollection')],
        teams: ['listTeamPermissionsInCollection', officialResponse('listTeamPermissionsInCollection')],
        aggregate: ['listPermissionsAggregateInCollection', officialResponse('listPermissionsAggregateInCollection')],
      },
      organizationOf: async (collectionId, call) => (await content.collections.getCollection({ collectionId }, call)).organization,
    },
  ];
}

/** The permission routes of one kind of content: direct grants to users and teams, and everyone's effective role. */
function permissionRoutesOf(t: PermissionTarget, permissions: ContentClients['permissions'], identity: IdentityClients, urls: Urls): RouteSpec[] {
  const target = (params: Record<string, string>): pb.ContentTarget => ({ kind: t.kind, id: params[t.param] });
  const grant = (params: Record<string, string>, principalKind: 'user' | 'team', principalId: string): pb.GrantRef => ({ target: target(params), principalKind, principalId });
  const targetParam = { [t.param]: ID_PARAM };
  const of = `the ${t.kind}`;
  /** Grants (or effective roles) of users, with the profiles the caller may see; the others are left out. */
  const withUsers = async (r: pb.ListUserGrantsResponse, call: Call) => {
    const users = await usersById(
      identity.identity,
      r.items.map((i) => i.userId),
      call,
    );
    const items = r.items.filter((i) => users.has(i.userId)).map((i) => ({ permission: i.permission, user: userJson(users.get(i.userId)!, urls) }));
    return toList(items, withoutHidden(r.page, r.items.length - items.length));
  };
  return [
    {
      method: 'post',
      path: `${t.path}/permissions`,
      operationId: t.operationIds.invite,
      summary: `Grant a role on ${of} to users and teams, replacing their grants; role null removes them (${t.kind} admins)`,
      tags: [t.tag],
      params: targetParam,
      body: INVITE,
      success: { status: 204, description: 'Granted' },
      refusals: [{ status: 400, description: "A user or team named is not one of the organization's" }],
      async handler({ caller, deadline, params, body }) {
        const b = body as { role: string | null; users?: string[]; teams?: string[] };
        await permissions.invite({ target: target(params), role: b.role ?? undefined, users: b.users ?? [], teams: b.teams ?? [] }, { caller, deadline });
        return {};
      },
    },
    {
      method: 'get',
      path: `${t.path}/permissions/users`,
      operationId: t.lists.users[0],
      summary: `List the users granted a role on ${of} directly (readers of ${of})`,
      tags: [t.tag],
      params: targetParam,
      query: LIST_QUERY,
      success: { status: 200, description: 'A page of user permissions', schema: t.lists.users[1] },
      async handler({ caller, deadline, params, query }) {
        const r = await permissions.listUserGrants({ target: target(params), page: pageOf(query) }, { caller, deadline });
        return { body: await withUsers(r, { caller, deadline }) };
      },
    },
    {
      method: 'get',
      path: `${t.path}/permissions/teams`,
      operationId: t.lists.teams[0],
      summary: `List the teams granted a role on ${of} (readers of ${of}; teams the caller cannot see in the organization are left out)`,
      tags: [t.tag],
      params: targetParam,
      query: LIST_QUERY,
      success: { status: 200, description: 'A page of team permissions', schema: t.lists.teams[1] },
      async handler({ caller, deadline, params, query }) {
        const call = { caller, deadline };
        const [r, organizationId] = await Promise.all([permissions.listTeamGrants({ target: target(params), page: pageOf(query) }, call), t.organizationOf(params[t.param], call)]);
        const teams = await teamsById(
          identity.teams,
          organizationId,
          r.items.map((i) => i.teamId),
          call,
        );
        const items = r.items.filter((i) => teams.has(i.teamId)).map((i) => ({ permission: i.permission, team: teamJson(teams.get(i.teamId)!) }));
        return { body: toList(items, withoutHidden(r.page, r.items.length - items.length)) };
      },
    },
    {
      method: 'patch',
      path: `${t.path}/permissions/users/:userId`,
      operationId: t.operationIds.updateUser,
      summary: `Change a user's role on ${of}; null removes their grant (${t.kind} admins)`,
      tags: [t.tag],
      params: { ...targetParam, userId: ID_PARAM },
      body: UPDATE_GRANT,
      success: { status: 204, description: 'Updated' },
      async handler({ caller, deadline, params, body }) {
        const { role } = body as { role: string | null };
        await permissions.updateGrant({ grant: grant(params, 'user', params.userId), role: role ?? undefined }, { caller, deadline });
        return {};
      },
    },
    {
      method: 'patch',
      path: `${t.path}/permissions/teams/:teamId`,
      operationId: t.operationIds.updateTeam,
      summary: `Change a team's role on ${of}; null removes its grant (${t.kind} admins)`,
      tags: [t.tag],
      params: { ...targetParam, teamId: ID_PARAM },
      body: UPDATE_GRANT,
      success: { status: 204, description: 'Updated' },
      async handler({ caller, deadline, params, body }) {
        const { role } = body as { role: string | null };
        await permissions.updateGrant({ grant: grant(params, 'team', params.teamId), role: role ?? undefined }, { caller, deadline });
        return {};
      },
    },
    {
      method: 'delete',
      path: `${t.path}/permissions/users/:userId`,
      operationId: t.operationIds.removeUser,
      summary: `Remove a user's grant on ${of} (${t.kind} admins); 204 when they had none`,
      tags: [t.tag],
      params: { ...targetParam, userId: ID_PARAM },
      success: { status: 205, description: `The user's grant was removed` },
      alternatives: [{ status: 204, description: `The user had no grant on ${of}` }],
      async handler({ caller, deadline, params }) {
        return (await permissions.removeGrant(grant(params, 'user', params.userId), { caller, deadline })).removed ? {} : { status: 204 };
      },
    },
    {
      method: 'delete',
      path: `${t.path}/permissions/teams/:teamId`,
      operationId: t.operationIds.removeTeam,
      summary: `Remove a team's grant on ${of} (${t.kind} admins); 204 when it had none`,
      tags: [t.tag],
      params: { ...targetParam, teamId: ID_PARAM },
      success: { status: 205, description: `The team's grant was removed` },
      alternatives: [{ status: 204, description: `The team had no grant on ${of}` }],
      async handler({ caller, deadline, params }) {
        return (await permissions.removeGrant(grant(params, 'team', params.teamId), { caller, deadline })).removed ? {} : { status: 204 };
      },
    },
    {
      method: 'get',
      path: `${t.path}/permissions/aggregate`,
      operationId: t.lists.aggregate[0],
      summary: `List everyone with access to ${of} and their effective role, from every source; role: only that role (readers of ${of})`,
      tags: [t.tag],
      params: targetParam,
      query: AGGREGATE_QUERY,
      success: { status: 200, description: 'A page of user permissions', schema: t.lists.aggregate[1] },
      async handler({ caller, deadline, params, query }) {
        const r = await permissions.listAggregate({ target: target(params), page: pageOf(query), role: query.role as string | undefined }, { caller, deadline });
        return { body: await withUsers(r, { caller, deadline }) };
      },
    },
  ];
}

/** /v1/spaces/{spaceId}/permissions… and /v1/collections/{collectionId}/permissions…. */
export function permissionRoutes(content: ContentClients, identity: IdentityClients, urls: Urls): RouteSpec[] {
  return targets(content).flatMap((t) => permissionRoutesOf(t, content.permissions, identity, urls));
}

/**
 * The page info of a list some of whose items were left out (users or teams the caller may not see
 * in identity): `count` never counts what the caller is not shown.
 */
function withoutHidden(page: { count: number; nextPage?: string } | undefined, hidden: number) {
  return page ? { ...page, count: Math.max(0, page.count - hidden) } : page;
}
