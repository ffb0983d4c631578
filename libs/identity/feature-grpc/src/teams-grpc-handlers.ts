import { GrpcRegistration, grpcService } from '@bindery/platform/grpc';
import { identityTeamsV1 as pb } from '@bindery/shared/contracts';
import { IdentityDeps } from './identity-deps';
import { liveTeams } from './member-access.service';
import { toUser } from './proto-mappers';
import { listTeamMembers, putTeamMember, removeTeamMember, TeamMemberView, updateTeamMembers } from './team-members.service';
import { createTeam, deleteTeam, getTeam, listTeams, listTeamsOfMember, TeamView, updateTeam } from './teams.service';

function toTeam(v: TeamView): pb.Team {
  return {
    id: v.team._id,
    title: v.team.title,
    members: v.members,
    // Spaces live in the content service; until it tells identity about team access, none.
    spaces: 0,
    createdAt: v.team.createdAt,
    permissions: { admin: v.permissions.admin, view: v.permissions.view },
  };
}

function toTeamMember(v: TeamMemberView): pb.TeamMemberEntry {
  return {
    organization: {
      user: toUser(v.user),
      role: v.member.role ?? undefined,
      disabled: v.member.disabled,
      joinedAt: v.member.joinedAt,
      lastSeenAt: v.member.lastSeenAt,
      sso: v.member.sso,
      spaces: 0,
      teams: v.teams,
    },
    role: v.role,
    view: v.view,
  };
}

const pageOf = (p: { page?: { page: string; limit: number } | undefined }) => ({ page: p.page?.page, limit: p.page?.limit });
const listReply = <T, R>(page: { items: T[]; count: number; nextPage?: string }, map: (item: T) => R) => ({
  items: page.items.map(map),
  page: { count: page.count, nextPage: page.nextPage },
});

/** TeamsService: proto ⇄ domain, one use case per call. */
export function teamsHandlers(deps: IdentityDeps): GrpcRegistration {
  return grpcService(pb.TeamsServiceService, {
    async listTeams(req, ctx) {
      const page = await listTeams(deps, ctx.caller, req.organizationId, { page: pageOf(req), owner: req.owner, title: req.title });
      return listReply(page, toTeam);
    },
    async createTeam(req, ctx) {
      return toTeam(await createTeam(deps, ctx.caller, req.organizationId, { title: req.title, members: req.members }));
    },
    async getTeam(req, ctx) {
      return toTeam(await getTeam(deps, ctx.caller, req.organizationId, req.teamId));
    },
    async updateTeam(req, ctx) {
      return toTeam(await updateTeam(deps, ctx.caller, req.organizationId, req.teamId, { title: req.title }));
    },
    async deleteTeam(req, ctx) {
      return { deleted: await deleteTeam(deps, ctx.caller, req.organizationId, req.teamId) };
    },
    async listTeamMembers(req, ctx) {
      return listReply(await listTeamMembers(deps, ctx.caller, req.organizationId, req.teamId, pageOf(req)), toTeamMember);
    },
    async updateTeamMembers(req, ctx) {
      await updateTeamMembers(deps, ctx.caller, req.organizationId, req.teamId, { add: req.add, remove: req.remove, memberships: req.memberships });
      return {};
    },
    async putTeamMember(req, ctx) {
      await putTeamMember(deps, ctx.caller, req.organizationId, req.teamId, req.userId, req.role);
      return {};
    },
    async removeTeamMember(req, ctx) {
      return { removed: await removeTeamMember(deps, ctx.caller, req.organizationId, req.teamId, req.userId) };
    },
    async listTeamsOfMember(req, ctx) {
      const page = await listTeamsOfMember(deps, ctx.caller, req.organizationId, req.userId, { page: pageOf(req), title: req.title });
      return listReply(page, (v) => ({ team: toTeam(v), role: v.role }));
    },
    async getLiveTeams(req, ctx) {
      return { teamIds: await liveTeams(deps, ctx.caller, req.organizationId, req.teamIds) };
    },
  });
}
