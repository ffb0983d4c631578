import { forbidden } from '@bindery/platform/errors';
import { hasAtLeast, Role, RoleOrGuest } from '@bindery/shared/roles';

/**
 * Who may do what with an organization's OpenAPI specs, from the caller's organization role (the
 * ladder read < comment < edit < review < create < admin; guests see no spec):
 * - view: list specs, read them, their versions and their content — read and above;
 * - edit: give an existing spec a new source (PUT on its slug), which processes it again — edit and above;
 * - manage: create specs (POST, or PUT on a new slug), change their visibility, delete them — create
 *   and above, the role whose organization permission `createOpenAPISpec` identity answers with.
 * A caller who is not a member (or a guest) cannot see the specs at all: 404, as for a spec that does not exist.
 */
export type SpecAction = 'view' | 'edit' | 'manage';

const MINIMUM: Record<SpecAction, Role> = { view: 'read', edit: 'edit', manage: 'create' };

const NEEDS: Record<SpecAction, string> = {
  view: 'Reading OpenAPI specs needs a role in the organization.',
  edit: "Changing an OpenAPI spec's source needs the edit role in the organization.",
  manage: 'Creating OpenAPI specs, changing their visibility and deleting them needs the create role in the organization.',
};

/** The `permissions` of a spec (the official `delete` is `manage`), plus `manage` itself for the checks. */
export interface SpecPermissions {
  view: boolean;
  edit: boolean;
  delete: boolean;
  manage: boolean;
}

export function specPermissions(role: RoleOrGuest | undefined, isInstanceAdmin = false): SpecPermissions {
  const may = (a: SpecAction) => isInstanceAdmin || hasAtLeast(role, MINIMUM[a]);
  return { view: may('view'), edit: may('edit'), delete: may('manage'), manage: may('manage') };
}

/** Throws 403 unless the permissions allow the action (visibility, 404, is decided before). */
export function assertSpecAction(permissions: SpecPermissions, action: SpecAction): void {
  if (!permissions[action]) throw forbidden(NEEDS[action]);
}

/**
 * Translation settings: members with a role read them (read and above); organization admins create,
 * change and delete them. Guests and outsiders see none (404).
 */
export type TranslationAction = 'view' | 'edit';

export interface TranslationPermissions {
  view: boolean;
  edit: boolean;
}

export function translationPermissions(role: RoleOrGuest | undefined, isInstanceAdmin = false): TranslationPermissions {
  return { view: isInstanceAdmin || hasAtLeast(role, 'read'), edit: isInstanceAdmin || hasAtLeast(role, 'admin') };
}

export function assertTranslationAction(permissions: TranslationPermissions, action: TranslationAction): void {
  if (permissions[action]) return;
  throw forbidden(action === 'view' ? 'Reading translation settings needs a role in the organization.' : 'Changing translation settings needs the admin role in the organization.');
}
