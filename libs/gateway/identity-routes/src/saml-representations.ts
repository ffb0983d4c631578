import { identitySamlV1 as pb } from '@bindery/shared/contracts';
import { Urls } from './representations';

/**
 * The official OrganizationSAMLProvider. Settings not configured yet (a `pending` provider) are left
 * out rather than sent empty; the certificate is the identity provider's public certificate, sent
 * as stored, as the official schema shows it.
 */
export function samlProviderJson(p: pb.SamlProvider, urls: Urls) {
  const team = p.defaultTeam;
  return {
    object: 'saml-provider',
    id: p.id,
    label: p.label,
    ...(p.ssoUrl !== undefined ? { ssoURL: p.ssoUrl } : {}),
    ...(p.entityId !== undefined ? { entityID: p.entityId } : {}),
    ...(p.certificate !== undefined ? { certificate: p.certificate } : {}),
    ...(team
      ? {
          defaultTeam: {
            object: 'team',
            id: team.id,
            title: team.title,
            members: team.members,
            spaces: 0,
            createdAt: team.createdAt,
            // Only organization admins see providers, and they manage every team.
            permissions: { admin: true, view: true },
          },
        }
      : {}),
    defaultRole: p.defaultRole ?? null,
    createdAt: p.createdAt,
    status: p.status,
    service: { acsURL: p.service!.acsUrl, startURL: p.service!.startUrl, entityID: p.service!.entityId },
    urls: { location: `${urls.publicUrl}/v1/orgs/${encodeURIComponent(p.organizationId)}/saml/${encodeURIComponent(p.id)}` },
  };
}

export function ssoProviderLoginJson(l: pb.SsoProviderLogin) {
  return { id: l.id, label: l.label, startURL: l.startUrl };
}
