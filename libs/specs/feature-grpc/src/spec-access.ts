import { notFound } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { isRole } from '@bindery/shared/roles';
import { SpecPermissions, specPermissions, TranslationPermissions, translationPermissions } from '@bindery/specs/domain';
import type { SpecsDeps } from './specs-deps';

/** The caller's role in the organization (null: guest), from the access projection; undefined: not a member. */
async function roleIn(deps: Pick<SpecsDeps, 'access'>, caller: Caller, organizationId: string) {
  const access = await deps.access.accessOf(organizationId, caller.userId);
  if (!access) return undefined;
  return isRole(access.role) ? access.role : null;
}

/**
 * The caller's permissions on the organization's specs. A caller outside the organization (or a
 * guest in it) sees none of them: `what` is not found, like a spec that does not exist.
 */
export async function orgSpecPermissions(deps: Pick<SpecsDeps, 'access'>, caller: Caller, organizationId: string, what = 'OpenAPI spec'): Promise<SpecPermissions> {
  const permissions = caller.isInstanceAdmin ? specPermissions(null, true) : specPermissions(await roleIn(deps, caller, organizationId));
  if (!permissions.view) throw notFound(what);
  return permissions;
}

/** The caller's permissions on the organization's translation settings (404 for outsiders and guests). */
export async function orgTranslationPermissions(deps: Pick<SpecsDeps, 'access'>, caller: Caller, organizationId: string): Promise<TranslationPermissions> {
  const permissions = caller.isInstanceAdmin ? translationPermissions(null, true) : translationPermissions(await roleIn(deps, caller, organizationId));
  if (!permissions.view) throw notFound('Translation settings');
  return permissions;
}
