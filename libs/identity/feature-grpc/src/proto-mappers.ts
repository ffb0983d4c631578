import { identityV1 as pb } from '@bindery/shared/contracts';
import { isRole, organizationPermissions, RoleOrGuest, UserRecord } from '@bindery/identity/domain';
import { invalid } from '@bindery/platform/errors';
import { OrganizationPatch, OrganizationView } from './organizations.service';

export function toUser(user: UserRecord): pb.User {
  return { id: user._id, displayName: user.displayName, email: user.email, photoUrl: user.photoURL };
}

export function toOrganization({ org, standing }: OrganizationView): pb.Organization {
  const p = organizationPermissions(standing);
  return {
    id: org._id,
    title: org.title,
    createdAt: org.createdAt,
    emailDomains: org.emailDomains,
    hostname: org.hostname,
    type: org.type,
    useCase: org.useCase,
    communityType: org.communityType,
    defaultRole: org.defaultRole ?? undefined,
    defaultContent: org.defaultContent,
    sso: org.sso,
    ai: org.ai,
    inviteLinks: org.inviteLinks,
    plan: org.plan,
    logo: org.logo,
    trialStatus: 'notapplicable',
    // The domain's permissions object is the message field for field (json_name keeps `createOpenAPISpec`).
    permissions: p satisfies pb.OrganizationPermissions,
  };
}

/** A role from the wire: absent value = guest; anything else must be a known role. */
export function roleFromNullable(n: { value?: string | undefined }): RoleOrGuest {
  if (n.value === undefined) return null;
  if (!isRole(n.value)) throw invalid(`"${n.value}" is not a role.`);
  return n.value;
}

export function organizationPatchFromProto(req: pb.UpdateOrganizationRequest): OrganizationPatch {
  const patch: OrganizationPatch = {};
  if (req.title !== undefined) patch.title = req.title;
  if (req.emailDomains !== undefined) patch.emailDomains = req.emailDomains.values;
  if (req.hostname !== undefined) patch.hostname = req.hostname;
  if (req.defaultRole !== undefined) patch.defaultRole = { value: roleFromNullable(req.defaultRole) };
  if (req.defaultContent !== undefined) {
    const v = req.defaultContent.value;
    if (v && v.type !== 'site') throw invalid('defaultContent.type must be "site".');
    patch.defaultContent = { value: v ? { type: 'site', site: v.site } : null };
  }
  if (req.logo !== undefined) patch.logo = { value: req.logo.value ?? null };
  if (req.sso !== undefined) patch.sso = req.sso;
  if (req.ai !== undefined) patch.ai = req.ai;
  if (req.inviteLinks !== undefined) patch.inviteLinks = req.inviteLinks;
  return patch;
}
