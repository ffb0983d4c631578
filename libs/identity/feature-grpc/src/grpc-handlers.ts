import { GrpcRegistration, grpcService } from '@bindery/platform/grpc';
import { identityV1 as pb } from '@bindery/shared/contracts';
import { IdentityDeps } from './identity-deps';
import { inviteMembers } from './invites.service';
import { createOrganization, listOrganizations, loadVisible, organizationsForEmailDomain, pingOrganization, updateOrganization } from './organizations.service';
import { organizationPatchFromProto, roleFromNullable, toOrganization, toUser } from './proto-mappers';
import { authenticate, createApiToken, createUser, getUser, lookupUsers, revokeApiToken } from './users.service';

/** IdentityService: proto ⇄ domain, one use case per call. */
export function identityHandlers(deps: IdentityDeps): GrpcRegistration {
  return grpcService(
    pb.IdentityServiceService,
    {
      async authenticate(req) {
        const caller = await authenticate(deps, req.token);
        return { userId: caller.userId, isInstanceAdmin: caller.isInstanceAdmin };
      },
      async getCurrentUser(_req, ctx) {
        return toUser(await getUser(deps, ctx.caller.userId));
      },
      async lookupUsers(req, ctx) {
        return { users: (await lookupUsers(deps, ctx.caller, req.userIds)).map(toUser) };
      },
      async createUser(req, ctx) {
        return toUser(await createUser(deps, ctx.caller, { email: req.email, displayName: req.displayName }));
      },
      async createApiToken(req, ctx) {
        return createApiToken(deps, ctx.caller, req.userId, req.label);
      },
      async revokeApiToken(req, ctx) {
        return { revoked: await revokeApiToken(deps, ctx.caller, req.userId, req.tokenId) };
      },
      async createOrganization(req, ctx) {
        return toOrganization(await createOrganization(deps, ctx.caller, { title: req.title, emailDomains: req.emailDomains }));
      },
      async listOrganizations(req, ctx) {
        const page = await listOrganizations(deps, ctx.caller, { page: req.page?.page, limit: req.page?.limit });
        return { items: page.items.map(toOrganization), page: { count: page.count, nextPage: page.nextPage } };
      },
      async getOrganization(req, ctx) {
        return toOrganization(await loadVisible(deps, ctx.caller, req.organizationId));
      },
      async updateOrganization(req, ctx) {
        return toOrganization(await updateOrganization(deps, ctx.caller, req.organizationId, organizationPatchFromProto(req)));
      },
      async listOrganizationsByEmailDomain(req, ctx) {
        const views = await organizationsForEmailDomain(deps, ctx.caller, req.emailDomain);
        return { organizations: views.map(toOrganization) };
      },
      async pingOrganization(req, ctx) {
        return { lastSeenAt: await pingOrganization(deps, ctx.caller, req.organizationId) };
      },
      async inviteMembers(req, ctx) {
        const result = await inviteMembers(deps, ctx.caller, req.organizationId, {
          invitees: req.invitees.map((i) => ({ email: i.email, role: i.role ? roleFromNullable(i.role) : undefined })),
          role: req.role ? roleFromNullable(req.role) : undefined,
          sso: req.sso,
        });
        return { userIds: result.userIds, invited: result.invited };
      },
    },
    // lookupUsers: a site token's caller sees its organization's members by name (users.service)
    { public: ['authenticate'], siteReadable: ['lookupUsers'] },
  );
}
