import type { Caller } from '@bindery/platform/grpc';
import { notFound } from '@bindery/platform/errors';
import { ChangeRequestRecord, SpaceAccess } from '@bindery/change-requests/domain';
import { hasAtLeast, Role } from '@bindery/shared/roles';
import { ChangeRequestsDeps } from './deps';

/**
 * The caller's standing on a space, as content computes it (content answers 404 for a space they
 * cannot read, which this passes on).
 */
export async function spaceAccess(deps: ChangeRequestsDeps, caller: Caller, spaceId: string): Promise<SpaceAccess> {
  const space = await deps.content.spaces.getSpace({ spaceId }, { caller });
  const p = space.permissions;
  const locked = space.editMode === 'locked';
  // content's `edit` permission is false on a locked space: change requests still take edits there
  let edit = !!p?.edit;
  if (locked && p?.comment) {
    const [mine] = (await deps.content.permissions.effectiveRoles({ target: { kind: 'space', id: space.id }, users: [caller.userId] }, { caller })).items;
    edit = hasAtLeast((mine?.role as Role | undefined) ?? null, 'edit');
  }
  return {
    organizationId: space.organization,
    spaceId: space.id,
    revision: space.revision,
    can: { view: !!p?.view, comment: !!p?.comment, edit, review: !!p?.review, admin: !!p?.admin },
  };
}

/** A change request of a space the caller can read, by id or number; 404 otherwise. */
export async function visibleChangeRequest(deps: ChangeRequestsDeps, caller: Caller, spaceId: string, ref: string): Promise<{ access: SpaceAccess; cr: ChangeRequestRecord }> {
  const access = await spaceAccess(deps, caller, spaceId);
  const cr = await deps.changeRequests.find(access.spaceId, ref);
  if (!cr) throw notFound('Change request');
  return { access, cr };
}
