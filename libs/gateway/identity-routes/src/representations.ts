import { identityV1 as pb } from '@bindery/shared/contracts';

/** REST representations of identity's resources, in the official API's shapes. */
export interface Urls {
  publicUrl: string;
  appUrl: string;
}

export function userJson(u: pb.User, urls: Urls) {
  return {
    object: 'user',
    id: u.id,
    displayName: u.displayName,
    ...(u.email ? { email: u.email } : {}),
    ...(u.photoUrl ? { photoURL: u.photoUrl } : {}),
    urls: { location: `${urls.publicUrl}/v1/users/${encodeURIComponent(u.id)}` },
  };
}

export function organizationJson(o: pb.Organization, urls: Urls) {
  const p = o.permissions!;
  return {
    object: 'organization',
    id: o.id,
    title: o.title,
    createdAt: o.createdAt,
    emailDomains: o.emailDomains,
    ...(o.hostname ? { hostname: o.hostname } : {}),
    type: o.type,
    ...(o.useCase ? { useCase: o.useCase } : {}),
    ...(o.communityType ? { communityType: o.communityType } : {}),
    defaultRole: o.defaultRole ?? null,
    ...(o.defaultContent ? { defaultContent: { type: o.defaultContent.type, site: o.defaultContent.site } } : {}),
    sso: o.sso,
    ai: o.ai,
    inviteLinks: o.inviteLinks,
    plan: o.plan,
    mergeRules: { type: 'none' },
    urls: {
      location: `${urls.publicUrl}/v1/orgs/${encodeURIComponent(o.id)}`,
      app: `${urls.appUrl}/o/${encodeURIComponent(o.id)}`,
      ...(o.logo ? { logo: o.logo } : {}),
    },
    trial: { status: o.trialStatus, count: 0 },
    // The message's fields are the REST object's (json_name), written once in identity.proto.
    permissions: { ...p },
  };
}
