import { ID_PARAM, LIST_QUERY, object, officialResponse, pageOf, RouteSpec, toList, trimmedText } from '@bindery/gateway/http';
import type { TeamsClient } from '@bindery/identity/client';
import { TEXT_LIMITS } from '@bindery/shared/text';
import { Urls } from './representations';
import { memberTeamJson, teamJson, teamMemberJson } from './team-representations';

/** Request schemas (limits from the API reference, in libs/shared/text). */
const TEAM_TITLE = trimmedText(TEXT_LIMITS.teamTitle.min, TEXT_LIMITS.teamTitle.max);
const TEAM_ROLE = { type: 'string', enum: ['owner', 'member'] };
const USER_REF = { type: 'string', minLength: 1, maxLength: 254 };
const USER_REFS = { type: 'array', maxItems: 1000, items: USER_REF };
const CREATE_TEAM = object({ title: TEAM_TITLE, members: { type: 'array', maxItems: 1000, items: ID_PARAM } }, ['title']);
const UPDATE_TEAM = object({ title: TEAM_TITLE }, ['title']);
const UPDATE_TEAM_MEMBERS = object({
  add: USER_REFS,
  remove: USER_REFS,
  memberships: { type: 'object', maxProperties: 1000, propertyNames: USER_REF, additionalProperties: object({ role: TEAM_ROLE }, ['role']) },
});
const PUT_TEAM_MEMBER = object({ role: TEAM_ROLE });
const TITLE_FILTER = { type: 'string', maxLength: 64 };

const ORG = { organizationId: ID_PARAM };
const TEAM_PARAMS = { organizationId: ID_PARAM, teamId: ID_PARAM };
const TEAM_MEMBER_PARAMS = { organizationId: ID_PARAM, teamId: ID_PARAM, userId: ID_PARAM };

/** /v1/orgs/{orgId}/teams…, and /v1/orgs/{orgId}/members/{userId}/teams. */
export function teamRoutes(teams: TeamsClient, urls: Urls): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/v1/orgs/:organizationId/teams',
      operationId: 'listTeamsInOrganizationById',
      summary: "List an organization's teams (non-guest members); owner = only the teams that member can manage",
      tags: ['teams'],
      params: ORG,
      query: { ...LIST_QUERY, owner: ID_PARAM, title: TITLE_FILTER },
      success: { status: 200, description: 'A page of teams', schema: officialResponse('listTeamsInOrganizationById') },
      async handler({ caller, deadline, params, query }) {
        const r = await teams.listTeams(
          { organizationId: params.organizationId, page: pageOf(query), owner: query.owner as string | undefined, title: query.title as string | undefined },
          { caller, deadline },
        );
        return { body: toList(r.items.map(teamJson), r.page) };
      },
    },
    {
      method: 'put',
      path: '/v1/orgs/:organizationId/teams',
      operationId: 'createOrganizationTeam',
      summary: 'Create a team (organization admins), optionally with members',
      tags: ['teams'],
      params: ORG,
      body: CREATE_TEAM,
      success: { status: 201, description: 'The team', schema: officialResponse('createOrganizationTeam') },
      refusals: [{ status: 400, description: 'A user in `members` is not a member of this organization' }],
      async handler({ caller, deadline, params, body }) {
        const b = body as { title: string; members?: string[] };
        const team = await teams.createTeam({ organizationId: params.organizationId, title: b.title, members: b.members ?? [] }, { caller, deadline });
        return { status: 201, body: teamJson(team) };
      },
    },
    {
      method: 'get',
      path: '/v1/orgs/:organizationId/teams/:teamId',
      operationId: 'getTeamInOrganizationById',
      summary: 'Get a team',
      tags: ['teams'],
      params: TEAM_PARAMS,
      success: { status: 200, description: 'The team', schema: officialResponse('getTeamInOrganizationById') },
      async handler({ caller, deadline, params }) {
        return { body: teamJson(await teams.getTeam({ organizationId: params.organizationId, teamId: params.teamId }, { caller, deadline })) };
      },
    },
    {
      method: 'patch',
      path: '/v1/orgs/:organizationId/teams/:teamId',
      operationId: 'updateTeamInOrganizationById',
      summary: 'Rename a team (organization admins)',
      tags: ['teams'],
      params: TEAM_PARAMS,
      body: UPDATE_TEAM,
      success: { status: 200, description: 'The updated team', schema: officialResponse('updateTeamInOrganizationById') },
      async handler({ caller, deadline, params, body }) {
        const team = await teams.updateTeam({ organizationId: params.organizationId, teamId: params.teamId, title: (body as { title: string }).title }, { caller, deadline });
        return { body: teamJson(team) };
      },
    },
    {
      method: 'delete',
      path: '/v1/orgs/:organizationId/teams/:teamId',
      operationId: 'removeTeamFromOrganizationById',
      summary: 'Delete a team (organization admins); 204 whether or not there was one',
      tags: ['teams'],
      params: TEAM_PARAMS,
      success: { status: 204, description: 'The team was deleted, or did not exist' },
      async handler({ caller, deadline, params }) {
        await teams.deleteTeam({ organizationId: params.organizationId, teamId: params.teamId }, { caller, deadline });
        return {};
      },
    },
    {
      method: 'get',
      path: '/v1/orgs/:organizationId/teams/:teamId/members',
      operationId: 'listTeamMembersInOrganizationById',
      summary: "List a team's members and their roles",
      tags: ['team-members'],
      params: TEAM_PARAMS,
      query: LIST_QUERY,
      success: { status: 200, description: 'A page of team members', schema: officialResponse('listTeamMembersInOrganizationById') },
      async handler({ caller, deadline, params, query }) {
        const r = await teams.listTeamMembers({ organizationId: params.organizationId, teamId: params.teamId, page: pageOf(query) }, { caller, deadline });
        return {
          body: toList(
            r.items.map((e) => teamMemberJson(e, urls)),
            r.page,
          ),
        };
      },
    },
    {
      method: 'put',
      path: '/v1/orgs/:organizationId/teams/:teamId/members',
      operationId: 'updateMembersInOrganizationTeam',
      summary: "Add, remove and set roles of a team's members (admins and team owners); a user both added and removed ends removed",
      tags: ['team-members'],
      params: TEAM_PARAMS,
      body: UPDATE_TEAM_MEMBERS,
      success: { status: 204, description: 'Updated' },
      refusals: [{ status: 400, description: 'A user in `add` or `remove` is not a member of this organization' }],
      async handler({ caller, deadline, params, body }) {
        const b = body as { add?: string[]; remove?: string[]; memberships?: Record<string, { role: string }> };
        const memberships = Object.fromEntries(Object.entries(b.memberships ?? {}).map(([user, m]) => [user, m.role]));
        await teams.updateTeamMembers(
          { organizationId: params.organizationId, teamId: params.teamId, add: b.add ?? [], remove: b.remove ?? [], memberships },
          { caller, deadline },
        );
        return {};
      },
    },
    {
      method: 'put',
      path: '/v1/orgs/:organizationId/teams/:teamId/members/:userId',
      operationId: 'addMemberToOrganizationTeamById',
      summary: 'Add a member to a team or change their role (admins and team owners)',
      tags: ['team-members'],
      params: TEAM_MEMBER_PARAMS,
      body: PUT_TEAM_MEMBER,
      bodyOptional: true,
      success: { status: 204, description: 'Added or updated' },
      async handler({ caller, deadline, params, body }) {
        const role = (body as { role?: string } | undefined)?.role;
        await teams.putTeamMember({ organizationId: params.organizationId, teamId: params.teamId, userId: params.userId, role }, { caller, deadline });
        return {};
      },
    },
    {
      method: 'delete',
      path: '/v1/orgs/:organizationId/teams/:teamId/members/:userId',
      operationId: 'deleteMemberFromOrganizationTeamById',
      summary: 'Remove a member from a team (admins and team owners); 204 whether or not they were in it',
      tags: ['team-members'],
      params: TEAM_MEMBER_PARAMS,
      success: { status: 204, description: 'The member was removed from the team, or was not part of it' },
      async handler({ caller, deadline, params }) {
        await teams.removeTeamMember({ organizationId: params.organizationId, teamId: params.teamId, userId: params.userId }, { caller, deadline });
        return {};
      },
    },
    {
      method: 'get',
      path: '/v1/orgs/:organizationId/members/:userId/teams',
      operationId: 'listTeamsForOrganizationMember',
      summary: "List a member's teams (non-guest members, and the member themselves)",
      tags: ['organization-members'],
      params: { organizationId: ID_PARAM, userId: ID_PARAM },
      query: { ...LIST_QUERY, title: TITLE_FILTER },
      success: { status: 200, description: "A page of the member's teams", schema: officialResponse('listTeamsForOrganizationMember') },
      async handler({ caller, deadline, params, query }) {
        const r = await teams.listTeamsOfMember(
          { organizationId: params.organizationId, userId: params.userId, page: pageOf(query), title: query.title as string | undefined },
          { caller, deadline },
        );
        return { body: toList(r.items.map(memberTeamJson), r.page) };
      },
    },
  ];
}
