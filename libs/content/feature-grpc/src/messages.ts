import { collectionPermissions, CollectionRecord, SpaceRecord, spacePermissions } from '@bindery/content/domain';
import { contentV1 as pb } from '@bindery/shared/contracts';
import type { RoleOrGuest } from '@bindery/shared/roles';

/** A space as its message (the REST shape, less what the gateway adds), with the caller's permissions. */
export function spaceMessage(s: SpaceRecord, role: RoleOrGuest): pb.Space {
  return {
    id: s._id,
    title: s.title,
    emoji: s.emoji,
    icon: s.icon,
    visibility: s.visibility,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    deletedAt: s.deletedAt,
    editMode: s.editMode,
    organization: s.organizationId,
    parent: s.parent ?? undefined,
    revision: s.revision,
    defaultLevel: s.defaultLevel ?? undefined,
    permissions: spacePermissions(role, s.editMode),
    counts: s.counts,
  };
}

export function collectionMessage(c: CollectionRecord, role: RoleOrGuest): pb.Collection {
  return {
    id: c._id,
    title: c.title,
    description: c.description,
    organization: c.organizationId,
    parent: c.parent ?? undefined,
    defaultLevel: c.defaultLevel ?? undefined,
    permissions: collectionPermissions(role),
  };
}
