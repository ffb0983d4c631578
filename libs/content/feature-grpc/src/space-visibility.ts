import { notFound } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import type { ClientSession } from '@bindery/platform/mongo';
import { assertRole, SpaceRecord } from '@bindery/content/domain';
import type { RoleOrGuest } from '@bindery/shared/roles';
import type { ContentDeps } from './content-deps';
import { OrgView, spaceItem } from './org-view';

/**
 * A live space and the caller's view of its organization; 404 unless the caller can at least read it.
 *
 * A site token's caller (`caller.site`) reads exactly the spaces of its scope, in the scope's
 * organization, as a reader (view only: never comment, edit or admin), whatever anyone's roles; to
 * it every other space does not exist. Its view of the organization is a guest's: nothing else in
 * it is visible through the view.
 */
export async function visibleSpace(deps: ContentDeps, caller: Caller, spaceId: string, session?: ClientSession): Promise<{ space: SpaceRecord; view: OrgView; role: RoleOrGuest }> {
  const space = await deps.spaces.findLive(spaceId, session);
  if (!space) throw notFound('Space');
  if (caller.site) {
    if (space.organizationId !== caller.site.organizationId || !caller.site.spaceIds.includes(space._id)) throw notFound('Space');
    return { space, view: await OrgView.of(deps, space.organizationId, { userId: caller.userId, member: undefined }), role: 'read' };
  }
  const view = await OrgView.load(deps, space.organizationId, caller.userId, { session });
  const role = view.roleOf(spaceItem(space));
  assertRole(role, 'read', 'space', 'Reading');
  return { space, view, role };
}
