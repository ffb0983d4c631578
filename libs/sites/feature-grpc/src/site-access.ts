import { notFound } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { assertSiteAction, SiteAction, sitePermissions, SitePermissions, SiteRecord } from '@bindery/sites/domain';
import { isRole } from '@bindery/shared/roles';
import type { SitesDeps } from './sites-deps';

/**
 * The caller's permissions on the organization's sites. A caller outside the organization (or a
 * guest in it) sees none of its sites: 404, like a site that does not exist.
 */
export async function orgSitePermissions(deps: Pick<SitesDeps, 'access'>, caller: Caller, organizationId: string): Promise<SitePermissions> {
  if (caller.isInstanceAdmin) return sitePermissions(null, true);
  const access = await deps.access.accessOf(organizationId, caller.userId);
  const role = isRole(access?.role) ? access.role : null;
  const permissions = sitePermissions(role);
  if (!permissions.view) throw notFound('Organization');
  return permissions;
}

/** A site the caller can see, with their permissions, after checking `action`; 404 when it is not there for them. */
export async function visibleSite(
  deps: Pick<SitesDeps, 'access' | 'sites'>,
  caller: Caller,
  organizationId: string,
  siteId: string,
  action: SiteAction = 'view',
): Promise<{ site: SiteRecord; permissions: SitePermissions }> {
  let permissions: SitePermissions;
  try {
    permissions = await orgSitePermissions(deps, caller, organizationId);
  } catch {
    throw notFound('Site');
  }
  const site = await deps.sites.get(organizationId, siteId);
  if (!site) throw notFound('Site');
  assertSiteAction(permissions, action);
  return { site, permissions };
}
