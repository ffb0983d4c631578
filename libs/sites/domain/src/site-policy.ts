import { forbidden } from '@bindery/platform/errors';
import { hasAtLeast, Role, RoleOrGuest } from '@bindery/shared/roles';

/**
 * Who may do what with an organization's sites, from the caller's organization role (the ladder
 * read < comment < edit < review < create < admin; guests see no site):
 * - view: read sites, their structure, share-link names (not keys), redirects — read and above;
 * - edit: sections, section groups, site spaces, their order, redirects, title, customization — edit and above;
 * - publish: create sites, publish and unpublish them — create and above;
 * - admin: delete sites, visibility, hostname, basename, proxy, adaptive schema, share links and
 *   their keys — admin.
 * A caller who is not a member (or a guest) cannot see the site at all: 404, as for a site that does not exist.
 */
export type SiteAction = 'view' | 'edit' | 'publish' | 'admin';

const MINIMUM: Record<SiteAction, Role> = { view: 'read', edit: 'edit', publish: 'create', admin: 'admin' };

const NEEDS: Record<SiteAction, string> = {
  view: 'Reading sites needs a role in the organization.',
  edit: "Changing a site's structure needs the edit role in the organization.",
  publish: 'Creating, publishing and unpublishing sites needs the create role in the organization.',
  admin: "Changing a site's access, address and share links, or deleting it, needs the admin role in the organization.",
};

export interface SitePermissions {
  view: boolean;
  edit: boolean;
  publish: boolean;
  admin: boolean;
}

/** The `permissions` a caller has on the organization's sites (instance admins have all). */
export function sitePermissions(role: RoleOrGuest | undefined, isInstanceAdmin = false): SitePermissions {
  const may = (a: SiteAction) => isInstanceAdmin || hasAtLeast(role, MINIMUM[a]);
  return { view: may('view'), edit: may('edit'), publish: may('publish'), admin: may('admin') };
}

/** Throws 403 unless the permissions allow the action (visibility, 404, is decided before). */
export function assertSiteAction(permissions: SitePermissions, action: SiteAction): void {
  if (!permissions[action]) throw forbidden(NEEDS[action]);
}
