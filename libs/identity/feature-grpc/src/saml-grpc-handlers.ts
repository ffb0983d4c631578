import { GrpcRegistration, grpcService } from '@bindery/platform/grpc';
import { identitySamlV1 as pb } from '@bindery/shared/contracts';
import { samlProviderStatus, samlServiceProvider } from '@bindery/identity/domain';
import { IdentityDeps } from './identity-deps';
import { roleFromNullable } from './proto-mappers';
import {
  createSamlProvider,
  deleteSamlProvider,
  getSamlProvider,
  listSamlProviders,
  listSsoProviderLogins,
  SamlProviderView,
  SamlSettings,
  updateSamlProvider,
} from './saml.service';

function toSamlProvider({ provider: p, team }: SamlProviderView, publicUrl: string): pb.SamlProvider {
  const service = samlServiceProvider(publicUrl, p._id);
  return {
    id: p._id,
    organizationId: p.organizationId,
    label: p.label,
    entityId: p.entityID,
    certificate: p.certificate,
    ssoUrl: p.ssoURL,
    defaultTeam: team ? { id: team._id, title: team.title, members: team.members, createdAt: team.createdAt } : undefined,
    defaultRole: p.defaultRole ?? undefined,
    createdAt: p.createdAt,
    status: samlProviderStatus(p),
    service: { acsUrl: service.acsURL, startUrl: service.startURL, entityId: service.entityID },
  };
}

function settingsFromProto(req: pb.CreateSamlProviderRequest | pb.UpdateSamlProviderRequest): SamlSettings {
  return {
    label: req.label,
    entityID: req.entityId,
    certificate: req.certificate,
    ssoURL: req.ssoUrl,
    defaultTeam: req.defaultTeam,
    defaultRole: req.defaultRole ? { value: roleFromNullable(req.defaultRole) } : undefined,
  };
}

/** SamlService: proto ⇄ domain; `publicUrl` is where this instance's SAML endpoints are reached. */
export function samlHandlers(deps: IdentityDeps, publicUrl: string): GrpcRegistration {
  return grpcService(pb.SamlServiceService, {
    async listSamlProviders(req, ctx) {
      const page = await listSamlProviders(deps, ctx.caller, req.organizationId, { page: req.page?.page, limit: req.page?.limit });
      return { items: page.items.map((v) => toSamlProvider(v, publicUrl)), page: { count: page.count, nextPage: page.nextPage } };
    },
    async createSamlProvider(req, ctx) {
      return toSamlProvider(await createSamlProvider(deps, ctx.caller, req.organizationId, { ...settingsFromProto(req), label: req.label }), publicUrl);
    },
    async getSamlProvider(req, ctx) {
      return toSamlProvider(await getSamlProvider(deps, ctx.caller, req.organizationId, req.samlProviderId), publicUrl);
    },
    async updateSamlProvider(req, ctx) {
      return toSamlProvider(await updateSamlProvider(deps, ctx.caller, req.organizationId, req.samlProviderId, settingsFromProto(req)), publicUrl);
    },
    async deleteSamlProvider(req, ctx) {
      return { deleted: await deleteSamlProvider(deps, ctx.caller, req.organizationId, req.samlProviderId) };
    },
    async listSsoProviderLogins(req, ctx) {
      const providers = await listSsoProviderLogins(deps, ctx.caller, req.organizationId);
      return { items: providers.map((p) => ({ id: p._id, label: p.label, startUrl: samlServiceProvider(publicUrl, p._id).startURL })) };
    },
  });
}
