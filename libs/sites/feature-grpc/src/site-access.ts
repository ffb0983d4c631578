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
  // A site token has no standing in the organization: only its own site is there for it (visibleSite).
  if (caller.site) throw notFound('Organization');
  if (caller.isInstanceAdmin) return sitePermissions(null, true);
  const access = await deps.access.accessOf(organizationId, caller.userId);
  const role = isRole(access?.role) ? access.role : null;
  const permissions = sitePermissions(role);
  if (!permissions.view) throw notFound('Organization');
  return permissions;
}

/** What a site token's caller may do with its own site: read it. */
const SITE_TOKEN_PERMISSIONS: SitePermissions = { view: true, edit: false, publish: false, admin: false };

/**
 * A site the caller can see, with their permissions, after checking `action`; 404 when it is not
 * there for them. A site token's caller sees its own site only, to read it (403 for anything else
 * on it; every other site is 404).
 */
export async function visibleSite(
  deps: Pick<SitesDeps, 'access' | 'sites'>,
  caller: Caller,
  organizationId: string,
  siteId: string,
  action: SiteAction = 'view',
): Promise<{ site: SiteRecord; permissions: SitePermissions }> {
  if (caller.site) {
    if (caller.site.organizationId !== organizationId || caller.site.siteId !== siteId) throw notFound('Site');
    const site = await deps.sites.get(organizationId, siteId);
    if (!site) throw notFound('Site');
    assertSiteAction(SITE_TOKEN_PERMISSIONS, action);
    return { site, permissions: SITE_TOKEN_PERMISSIONS };
  }
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
