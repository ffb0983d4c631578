import { GrpcRegistration, grpcService } from '@bindery/platform/grpc';
import { identityLinkInvitesV1 as pb } from '@bindery/shared/contracts';
import { linkInviteRedundant } from '@bindery/identity/domain';
import { IdentityDeps } from './identity-deps';
import {
  createLinkInvite,
  deleteLinkInvite,
  getLinkInvite,
  joinByEmailDomain,
  joinWithLinkInvite,
  LinkInviteView,
  listLinkInvites,
  updateLinkInvite,
} from './link-invites.service';
import { roleFromNullable } from './proto-mappers';

function toLinkInvite({ id, invite, standing }: LinkInviteView): pb.LinkInvite {
  return { id, role: invite.role ?? undefined, redundant: linkInviteRedundant(standing, invite.role) };
}

/** LinkInvitesService: proto ⇄ domain, one use case per call. */
export function linkInvitesHandlers(deps: IdentityDeps): GrpcRegistration {
  return grpcService(pb.LinkInvitesServiceService, {
    async createLinkInvite(req, ctx) {
      return toLinkInvite(await createLinkInvite(deps, ctx.caller, req.organizationId, roleFromNullable(req.role ?? {})));
    },
    async listLinkInvites(req, ctx) {
      const page = await listLinkInvites(deps, ctx.caller, req.organizationId, { page: req.page?.page, limit: req.page?.limit });
      return { items: page.items.map(toLinkInvite), page: { count: page.count, nextPage: page.nextPage } };
    },
    async getLinkInvite(req, ctx) {
      return toLinkInvite(await getLinkInvite(deps, ctx.caller, req.organizationId, req.inviteId));
    },
    async updateLinkInvite(req, ctx) {
      const role = req.role ? { value: roleFromNullable(req.role) } : undefined;
      return toLinkInvite(await updateLinkInvite(deps, ctx.caller, req.organizationId, req.inviteId, role));
    },
    async deleteLinkInvite(req, ctx) {
      return { deleted: await deleteLinkInvite(deps, ctx.caller, req.organizationId, req.inviteId) };
    },
    async joinWithLinkInvite(req, ctx) {
      return { joined: await joinWithLinkInvite(deps, ctx.caller, req.organizationId, req.inviteId) };
    },
    async joinByEmailDomain(req, ctx) {
      return { joined: await joinByEmailDomain(deps, ctx.caller, req.organizationId) };
    },
  });
}
