import { forbidden, notFound, precondition } from '@bindery/platform/errors';
import { hasAtLeast, Role, RoleOrGuest, strongerRole } from '@bindery/shared/roles';
import type { ContentKind, GrantRecord, Level } from './records';

/**
 * Who may do what with content. A caller's effective role on a space or a collection resolves
 * item → parent collections → organization:
 * - organization admins are admin everywhere;
 * - a member with a role gets the item's default level: its own `defaultLevel`, or with `inherit`
 *   its parent's, up to the organization, where it is the member's organization role; a null level
 *   anywhere on that way means no access by default;
 * - guests (members without a role) get no default;
 * - grants to the user or to one of their teams, on the item or on any collection above it, add to
 *   that: the strongest role wins;
 * - someone who is not a member of the organization has no access at all.
 * The `permissions` objects of spaces and collections are derived from the same role.
 */
export interface Principal {
  userId: string;
  /** absent: not a member of the organization */
  member?: { role: RoleOrGuest; teams: string[] };
}

/** What the policy needs to know about an item and its ancestors. */
export interface TreeItem {
  id: string;
  kind: ContentKind;
  parent: string | null;
  defaultLevel: Level;
}

export interface Tree {
  collection(id: string): TreeItem | undefined;
}

/** The item and its ancestor collections, nearest first (a missing ancestor ends the chain). */
export function chainOf(item: TreeItem, tree: Tree): TreeItem[] {
  const chain = [item];
  const seen = new Set<string>([`${item.kind}:${item.id}`]);
  let parent = item.parent;
  while (parent) {
    const next = tree.collection(parent);
    if (!next || seen.has(`collection:${next.id}`)) break;
    seen.add(`collection:${next.id}`);
    chain.push(next);
    parent = next.parent;
  }
  return chain;
}

/** The default level members get on the item: a role, or null. */
export function resolvedDefault(item: TreeItem, tree: Tree, orgRole: RoleOrGuest): RoleOrGuest {
  for (const node of chainOf(item, tree)) {
    if (node.defaultLevel !== 'inherit') return node.defaultLevel;
  }
  return orgRole;
}

export function effectiveRole(
  principal: Principal,
  item: TreeItem,
  tree: Tree,
  grants: readonly Pick<GrantRecord, 'targetKind' | 'targetId' | 'principalKind' | 'principalId' | 'role'>[],
): RoleOrGuest {
  const member = principal.member;
  if (!member) return null;
  if (member.role === 'admin') return 'admin';
  let role: RoleOrGuest = member.role === null ? null : resolvedDefault(item, tree, member.role);
  const targets = new Set(chainOf(item, tree).map((n) => `${n.kind}:${n.id}`));
  const teams = new Set(member.teams);
  for (const g of grants) {
    if (!targets.has(`${g.targetKind}:${g.targetId}`)) continue;
    const mine = g.principalKind === 'user' ? g.principalId === principal.userId : teams.has(g.principalId);
    if (mine) role = strongerRole(role, g.role);
  }
  return role;
}

export interface SpacePermissions {
  view: boolean;
  access: boolean;
  admin: boolean;
  viewInviteLinks: boolean;
  edit: boolean;
  triggerGitSync: boolean;
  comment: boolean;
  merge: boolean;
  review: boolean;
  installIntegration: boolean;
}

export type EditMode = 'live' | 'locked';

/**
 * A locked space refuses live edits and merges, whatever the caller's role: the refusal comes from
 * the space's state, not from the caller's rights, so it is a failed precondition (412), after the
 * role check (403) has passed. Change requests on a locked space still take edits.
 */
export function assertNotLocked(editMode: EditMode, refusal: 'merge' | 'live edit'): void {
  if (editMode !== 'locked') return;
  throw precondition(refusal === 'merge' ? 'The space is locked: nothing can be merged into it.' : 'The space is locked: its content changes only through change requests.');
}

/** Merging into a space: the review role on it (403 without), and a space that is not locked (412). */
export function assertCanMerge(role: RoleOrGuest, editMode: EditMode): void {
  assertRole(role, 'review', 'space', 'Merging');
  assertNotLocked(editMode, 'merge');
}

/** A locked space refuses every edit and merge, whatever the role (`assertNotLocked`). */
export function spacePermissions(role: RoleOrGuest, editMode: EditMode): SpacePermissions {
  const live = editMode === 'live';
  return {
    view: hasAtLeast(role, 'read'),
    access: hasAtLeast(role, 'read'),
    admin: hasAtLeast(role, 'admin'),
    viewInviteLinks: hasAtLeast(role, 'admin'),
    edit: live && hasAtLeast(role, 'edit'),
    triggerGitSync: live && hasAtLeast(role, 'edit'),
    comment: hasAtLeast(role, 'comment'),
    merge: live && hasAtLeast(role, 'review'),
    review: hasAtLeast(role, 'review'),
    installIntegration: hasAtLeast(role, 'admin'),
  };
}

export interface CollectionPermissions {
  view: boolean;
  admin: boolean;
  viewInviteLinks: boolean;
  create: boolean;
}

export function collectionPermissions(role: RoleOrGuest): CollectionPermissions {
  return { view: hasAtLeast(role, 'read'), admin: hasAtLeast(role, 'admin'), viewInviteLinks: hasAtLeast(role, 'admin'), create: hasAtLeast(role, 'create') };
}

const NOUN: Record<ContentKind, string> = { space: 'Space', collection: 'Collection' };

/** Invisible and nonexistent are the same answer; visible but not enough is a 403 naming what is needed. */
export function assertRole(role: RoleOrGuest, needed: Role, kind: ContentKind, action: string): void {
  if (!hasAtLeast(role, 'read')) throw notFound(NOUN[kind]);
  if (!hasAtLeast(role, needed)) throw forbidden(`${action} needs the ${needed} role on this ${kind}.`);
}

/** Creating content at the organization's top level needs the create role in the organization. */
export function assertCanCreateInOrganization(principal: Principal): void {
  if (!principal.member) throw notFound('Organization');
  if (!hasAtLeast(principal.member.role, 'create')) throw forbidden('Creating content needs the create role in the organization.');
}
