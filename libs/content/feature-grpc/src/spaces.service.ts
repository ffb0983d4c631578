import { forbidden, invalid, notFound } from '@bindery/platform/errors';
import { isInternalCaller, type Caller } from '@bindery/platform/grpc';
import { ClientSession } from '@bindery/platform/mongo';
import { assertCanCreateInOrganization, assertRestorable, assertRole, checkContentTitle, CollectionRecord, isLevel, SpaceRecord, SpaceSelection } from '@bindery/content/domain';
import { ContentEvents as E } from '@bindery/content/client';
import { contentV1 as pb } from '@bindery/shared/contracts';
import { newId } from '@bindery/shared/ids';
import { decodeCursor, resolveLimit, toPage } from '@bindery/shared/pagination';
import { ContentDeps, nowOf, SOURCE } from './content-deps';
import { visibleSpace } from './space-visibility';
import { spaceMessage } from './messages';
import { OrgView, spaceItem } from './org-view';
import { placement } from './placement';
import { assertCanCreateUnder, conflictNothing, liveParent, pointers } from './parents';
import { transferItems } from './transfer';
import { grantEvent } from './grant-events';
import { copyContent, removeContent } from './revisions/copy-content';

const spaceEvent = (def: typeof E.spaceCreated, s: SpaceRecord, changedFields: string[] = []) =>
  def.create(SOURCE, s._id, { organizationId: s.organizationId, spaceId: s._id, changedFields, parent: s.parent ?? undefined }, s.organizationId);

/**
 * What a new space needs before its record is written, inside the organization's tree lock: the
 * caller's right to create there, an id, its first (empty) revision and its place (last).
 */
async function newSpaceSlot(
  deps: ContentDeps,
  view: OrgView,
  parent: CollectionRecord | null | undefined,
  session: ClientSession,
  content: { id?: string; pages?: string; files?: string } = {},
) {
  if (parent) assertCanCreateUnder(view, parent);
  else assertCanCreateInOrganization(view.principal);
  const now = nowOf(deps);
  const id = content.id ?? newId();
  const revision = newId();
  const roots = { ...(content.pages ? { pages: content.pages } : {}), ...(content.files ? { files: content.files } : {}) };
  await deps.revisions.insert({ _id: revision, spaceId: id, parents: [], type: 'edits', createdAt: now, ...roots }, session);
  const { position } = await placement(deps, view.organizationId, parent?._id ?? null, { kind: 'space', id }, undefined, session);
  return { id, revision, position, now };
}

export async function createSpace(deps: ContentDeps, caller: Caller, req: pb.CreateSpaceRequest): Promise<pb.Space> {
  const title = checkContentTitle(req.title ?? 'Untitled');
  if (req.editMode !== undefined && !['live', 'locked'].includes(req.editMode)) throw invalid('editMode must be live or locked.');
  const organizationId = req.organizationId;
  const created = await deps.transaction(async (session) => {
    const view = await OrgView.load(deps, organizationId, caller.userId, { session });
    if (!view.principal.member) throw notFound('Organization');
    const parent = req.parent ? await liveParent(deps, view, req.parent, session) : null;
    const { id, revision, position, now } = await newSpaceSlot(deps, view, parent, session);
    const space: SpaceRecord = {
      _id: id,
      organizationId,
      title,
      emoji: req.emoji ?? '',
      visibility: 'private',
      editMode: (req.editMode as SpaceRecord['editMode']) ?? 'live',
      parent: parent?._id ?? null,
      defaultLevel: 'inherit',
      position,
      revision,
      createdAt: now,
      updatedAt: now,
    };
    await deps.spaces.insert(space, [spaceEvent(E.spaceCreated, space)], session);
    return { space, role: view.roleOf(spaceItem(space)) };
  });
  return spaceMessage(created.space, created.role);
}

export async function getSpace(deps: ContentDeps, caller: Caller, spaceId: string): Promise<pb.Space> {
  const { space, role } = await visibleSpace(deps, caller, spaceId);
  return spaceMessage(space, role);
}

export async function listSpaces(deps: ContentDeps, caller: Caller, req: pb.ListSpacesRequest): Promise<pb.ListSpacesResponse> {
  const view = await OrgView.load(deps, req.organizationId, caller.userId);
  if (!view.principal.member) throw notFound('Organization');
  const page = await pageOfSpaces(deps, view, {}, req.page, 'created');
  return { items: page.items.map((i) => spaceMessage(i.space, i.role)), page: page.page };
}

/** A page of the spaces `view`'s principal can see among those matching `extra`, each with its permissions. */
export async function pageOfSpaces(
  deps: ContentDeps,
  view: OrgView,
  narrow: Omit<SpaceSelection, 'visible'>,
  page: pb.ListSpacesRequest['page'],
  order: 'created' | 'position',
  direction: 1 | -1 = 1,
) {
  const limit = resolveLimit(page?.limit);
  const cursor = decodeCursor(page?.page || undefined);
  const visible = view.visibleSpaces();
  if (!visible) return { items: [], page: { count: 0 } };
  const selection: SpaceSelection = { visible, ...narrow };
  const rows =
    order === 'created' ? await deps.spaces.pageOf(selection, { after: cursor, limit, direction }) : await deps.spaces.childrenPageOf(selection, { after: cursor, limit });
  const count = await deps.spaces.countOf(selection);
  const key = order === 'created' ? (s: SpaceRecord) => ({ k: s.createdAt, id: s._id }) : (s: SpaceRecord) => ({ k: s.position, id: s._id });
  const result = toPage(rows, limit, count, key, (s) => ({ space: s, role: view.roleOf(spaceItem(s)) }));
  return { items: result.items, page: { count: result.count, nextPage: result.nextPage } };
}

export async function updateSpace(deps: ContentDeps, caller: Caller, req: pb.UpdateSpaceRequest): Promise<pb.Space> {
  const { space, role } = await visibleSpace(deps, caller, req.spaceId);
  assertRole(role, 'admin', 'space', 'Changing the space');
  const set: Partial<SpaceRecord> = {};
  const unset: string[] = [];
  if (req.title !== undefined) {
    set.title = checkContentTitle(req.title);
  }
  if (req.emoji?.value !== undefined && req.icon?.value !== undefined) throw invalid('Give emoji or icon, not both.');
  if (req.emoji) {
    set.emoji = req.emoji.value ?? '';
    if (req.emoji.value !== undefined) unset.push('icon');
  }
  if (req.icon) {
    if (req.icon.value === undefined) unset.push('icon');
    else {
      set.icon = req.icon.value;
      set.emoji = '';
    }
  }
  if (req.defaultLevel) {
    const level = req.defaultLevel.value ?? null;
    if (!isLevel(level)) throw invalid('defaultLevel must be a role, inherit or null.');
    set.defaultLevel = level;
  }
  if (req.editMode !== undefined) {
    if (!['live', 'locked'].includes(req.editMode)) throw invalid('editMode must be live or locked.');
    set.editMode = req.editMode as SpaceRecord['editMode'];
  }
  const changed = [...Object.keys(set), ...unset].filter((f, i, all) => all.indexOf(f) === i);
  if (!changed.length) return spaceMessage(space, role);
  set.updatedAt = nowOf(deps);
  const updated = await deps.spaces.update(space._id, set, unset, [spaceEvent(E.spaceUpdated, { ...space, ...set }, changed)]);
  if (!updated) throw notFound('Space');
  return getSpace(deps, caller, space._id);
}

/** Soft delete: 404 unless the caller sees the space; `deleted` false when it already was. */
export async function deleteSpace(deps: ContentDeps, caller: Caller, spaceId: string): Promise<{ deleted: boolean }> {
  const space = await deps.spaces.findIncludingDeleted(spaceId);
  if (!space) throw notFound('Space');
  const view = await OrgView.load(deps, space.organizationId, caller.userId, { includeDeleted: true });
  const role = view.roleOf(spaceItem(space));
  assertRole(role, 'admin', 'space', 'Deleting the space');
  if (space.deletedAt) return { deleted: false };
  const at = nowOf(deps);
  const deleted = await deps.transaction((session) => deps.spaces.softDelete(space._id, at, undefined, [spaceEvent(E.spaceDeleted, space)], session));
  return { deleted };
}

/**
 * Brings a deleted space back within 7 days of its deletion, with the collections on its path that
 * were deleted (so it returns where it was); under a collection that no longer exists, it returns at
 * the organization's top level.
 */
export async function restoreSpace(deps: ContentDeps, caller: Caller, spaceId: string): Promise<pb.Space> {
  const space = await deps.spaces.findIncludingDeleted(spaceId);
  if (!space) throw notFound('Space');
  const view = await OrgView.load(deps, space.organizationId, caller.userId, { includeDeleted: true });
  assertRole(view.roleOf(spaceItem(space)), 'admin', 'space', 'Restoring the space');
  if (!space.deletedAt) throw invalid('The space is not deleted.');
  assertRestorable(space.deletedAt, deps.clock());
  await deps.transaction(async (session) => {
    await deps.locks.take(space.organizationId, session);
    const at = nowOf(deps);
    const chain = [];
    let above = space.parent;
    while (above) {
      const c = await deps.collections.findIncludingDeleted(above, session);
      if (!c || c.organizationId !== space.organizationId) break;
      chain.push(c);
      above = c.parent;
    }
    // `above` still set: the chain is cut by a collection that is gone; its top comes back at the top level.
    const cut = above !== null;
    for (const [i, c] of chain.entries()) {
      const parent = cut && i === chain.length - 1 ? null : c.parent;
      if (c.deletedAt) {
        const restored = await deps.collections.restore(
          c._id,
          at,
          parent,
          [
            E.collectionRestored.create(
              SOURCE,
              c._id,
              { organizationId: c.organizationId, collectionId: c._id, changedFields: [], deletedSpaces: [], deletedCollections: [], parent: parent ?? undefined },
              c.organizationId,
            ),
          ],
          session,
        );
        if (!restored) throw notFound('Space');
      }
    }
    const parent = cut && chain.length === 0 ? null : space.parent;
    const restored = await deps.spaces.restore(space._id, at, parent, [spaceEvent(E.spaceRestored, { ...space, parent })], session);
    if (!restored) throw notFound('Space');
  });
  return getSpace(deps, caller, space._id);
}

/**
 * A copy of a space beside it: its settings, its grants and its current content (copied before the
 * transaction that creates the space; removed again if that fails).
 */
export async function duplicateSpace(deps: ContentDeps, caller: Caller, spaceId: string): Promise<pb.Space> {
  const source = await visibleSpace(deps, caller, spaceId);
  const copyId = newId();
  const content = await copyContent(deps, source.space, copyId);
  const created = await deps
    .transaction(async (session) => {
      const { space, view } = await visibleSpace(deps, caller, spaceId, session);
      const parent = space.parent ? await liveParent(deps, view, space.parent, session) : null;
      const { id, revision, position, now } = await newSpaceSlot(deps, view, parent, session, { id: copyId, ...content });
      // the copy is not the create that made the source: its idempotency key stays with the source
      const { deletedAt: _d, deletedWith: _w, purgedAt: _p, idempotency: _k, ...settings } = space;
      const copy: SpaceRecord = { ...settings, _id: id, revision, position, createdAt: now, updatedAt: now };
      await deps.spaces.insert(copy, [spaceEvent(E.spaceCreated, copy, ['duplicatedFrom'])], session);
      for (const g of await deps.grants.onTargets([{ kind: 'space', id: space._id }], session)) {
        const key = { targetKind: 'space' as const, targetId: id, principalKind: g.principalKind, principalId: g.principalId };
        await deps.grants.set(copy.organizationId, key, g.role, now, [grantEvent(copy.organizationId, key, g.role)], session);
      }
      return { copy, view };
    })
    .catch(async (err) => {
      await removeContent(deps, copyId);
      throw err;
    });
  return spaceMessage(created.copy, created.view.roleOf(spaceItem(created.copy)));
}

export async function moveSpace(deps: ContentDeps, caller: Caller, req: pb.MoveRequest): Promise<pb.Space> {
  await deps.transaction(async (session) => {
    const { space, view, role } = await visibleSpace(deps, caller, req.id, session);
    assertRole(role, 'admin', 'space', 'Moving the space');
    await deps.locks.take(space.organizationId, session);
    const target = req.parent === undefined ? space.parent : (req.parent.value ?? null);
    if (target !== space.parent) {
      const parent = target ? await liveParent(deps, view, target, session) : null;
      if (parent) assertCanCreateUnder(view, parent);
      else assertCanCreateInOrganization(view.principal);
    }
    const at = await placement(deps, space.organizationId, target, { kind: 'space', id: space._id }, pointers(req.position), session);
    if (target === space.parent && at.samePlace) throw conflictNothing();
    const moved = { ...space, parent: target, position: at.position, updatedAt: nowOf(deps) };
    await deps.spaces.update(
      space._id,
      { parent: target, position: at.position, updatedAt: moved.updatedAt },
      [],
      [spaceEvent(E.spaceMoved, moved, ['parent', 'position'])],
      session,
    );
  });
  return getSpace(deps, caller, req.id);
}

export async function transferSpace(deps: ContentDeps, caller: Caller, req: pb.TransferRequest): Promise<pb.Space> {
  const { space, view, role } = await visibleSpace(deps, caller, req.id);
  assertRole(role, 'admin', 'space', 'Transferring the space');
  await transferItems(deps, view, req.organizationId, { kind: 'space', id: space._id });
  return getSpace(deps, caller, space._id);
}

export async function listMemberSpaces(deps: ContentDeps, caller: Caller, req: pb.ListMemberSpacesRequest): Promise<pb.ListMemberSpacesResponse> {
  const me = await OrgView.load(deps, req.organizationId, caller.userId);
  if (!me.principal.member) throw notFound('Organization');
  const target = req.userId === caller.userId ? me : await OrgView.load(deps, req.organizationId, req.userId);
  if (!target.principal.member) throw notFound('Member');
  // Only spaces the caller can see too: a member's list reveals no space hidden from the caller.
  const mine = me === target ? undefined : me.visibleSpaces();
  if (me !== target && !mine) return { items: [], page: { count: 0 } };
  const page = await pageOfSpaces(deps, target, mine ? { alsoVisible: mine } : {}, req.page, 'created', req.order === 'asc' ? 1 : -1);
  // `permission` is the member's role; the space's `permissions` are the caller's, as on every resource.
  return { items: page.items.map((i) => ({ permission: i.role ?? 'read', space: spaceMessage(i.space, me.roleOf(spaceItem(i.space))) })), page: page.page };
}

/** Every live space in id order, a page at a time: internal callers and instance admins only. */
export async function listAllSpaces(deps: ContentDeps, caller: Caller, req: pb.ListAllSpacesRequest): Promise<pb.ListAllSpacesResponse> {
  if (!isInternalCaller(caller.userId) && !caller.isInstanceAdmin) throw forbidden('Listing every space is for services and instance admins.');
  const limit = req.limit > 0 ? Math.min(req.limit, 1000) : 1000;
  const rows = await deps.spaces.idsAfter(req.after, limit);
  return { items: rows.map((r) => ({ spaceId: r._id, organizationId: r.organizationId })), next: rows.length === limit ? rows[rows.length - 1]._id : '' };
}
