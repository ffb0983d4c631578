import { forbidden, notFound } from '@bindery/platform/errors';
import { hasAtLeast, RoleOrGuest } from './roles';

/** The caller's standing in an organization: absent when not a member (the organization is invisible). */
export interface Standing {
  role: RoleOrGuest;
  ownsTeam: boolean;
}

export interface OrganizationPermissions {
  view: boolean;
  admin: boolean;
  ownTeam: boolean;
  createContent: boolean;
  createOpenAPISpec: boolean;
  ingestConversations: boolean;
  viewBilling: boolean;
  listMembers: boolean;
  listTeams: boolean;
  listIntegrations: boolean;
  access: boolean;
  listInstallations: boolean;
  installIntegration: boolean;
}

/** The `permissions` object of an organization, for a caller; the same answers the checks below give. */
export function organizationPermissions(standing: Standing | undefined): OrganizationPermissions {
  const member = standing !== undefined;
  const role = standing?.role ?? null;
  const admin = member && hasAtLeast(role, 'admin');
  const create = member && hasAtLeast(role, 'create');
  const nonGuest = member && role !== null;
  return {
    view: member,
    admin,
    ownTeam: member && standing.ownsTeam,
    createContent: create,
    createOpenAPISpec: create,
    ingestConversations: admin,
    viewBilling: admin,
    listMembers: nonGuest,
    listTeams: nonGuest,
    listIntegrations: nonGuest,
    access: member,
    listInstallations: nonGuest,
    installIntegration: admin,
  };
}

/** Invisible and nonexistent are the same answer. */
export function assertCanView(standing: Standing | undefined): asserts standing is Standing {
  if (!organizationPermissions(standing).view) throw notFound('Organization');
}

export function assertCanAdminister(standing: Standing | undefined): asserts standing is Standing {
  assertCanView(standing);
  if (!organizationPermissions(standing).admin) throw forbidden('Only organization admins can do this.');
}
