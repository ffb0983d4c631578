import { GrpcRegistration, grpcService } from '@bindery/platform/grpc';
import { identityMembersV1 as pb } from '@bindery/shared/contracts';
import { IdentityDeps } from './identity-deps';
import { memberAccess } from './member-access.service';
import { getMember, listMembers, MemberView, removeMember, setMemberSso, updateMemberRole } from './members.service';
import { roleFromNullable, toUser } from './proto-mappers';

function toMember(v: MemberView): pb.Member {
  return {
    user: toUser(v.user),
    role: v.member.role ?? undefined,
    disabled: v.member.disabled,
    joinedAt: v.member.joinedAt,
    lastSeenAt: v.member.lastSeenAt,
    sso: v.member.sso,
    spaces: 0,
    teams: v.teams,
  };
}

/** MembersService: proto ⇄ domain. */
export function membersHandlers(deps: IdentityDeps): GrpcRegistration {
  return grpcService(pb.MembersServiceService, {
    async listMembers(req, ctx) {
      const page = await listMembers(deps, ctx.caller, req.organizationId, {
        page: { page: req.page?.page, limit: req.page?.limit },
        order: req.order,
        sort: req.sort,
        role: req.role ? roleFromNullable(req.role) : undefined,
        search: req.search,
      });
      return { items: page.items.map(toMember), page: { count: page.count, nextPage: page.nextPage } };
    },
    async getMember(req, ctx) {
      return toMember(await getMember(deps, ctx.caller, req.organizationId, req.userId));
    },
    async updateMemberRole(req, ctx) {
      const role = req.role ? roleFromNullable(req.role) : undefined;
      return toMember(await updateMemberRole(deps, ctx.caller, req.organizationId, req.userId, role));
    },
    async removeMember(req, ctx) {
      return { removed: await removeMember(deps, ctx.caller, req.organizationId, req.userId) };
    },
    async setMemberSso(req, ctx) {
      return toMember(await setMemberSso(deps, ctx.caller, req.organizationId, req.userId));
    },
    async getMemberAccess(req, ctx) {
      return memberAccess(deps, ctx.caller, req.organizationId, req.userId);
    },
  });
}
