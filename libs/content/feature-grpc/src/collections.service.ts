import { invalid, notFound } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { ClientSession } from '@bindery/platform/mongo';
import {
  assertCanCreateInOrganization,
  assertNoCycle,
  assertRole,
  checkCollectionDescription,
  checkContentTitle,
  CollectionRecord,
  isLevel,
  childrenOf,
  subtreeOf,
} from '@bindery/content/domain';
import { ContentEvents as E } from '@bindery/content/client';
import { contentV1 as pb } from '@bindery/shared/contracts';
import { newId } from '@bindery/shared/ids';
import { decodeCursor, resolveLimit, toPage } from '@bindery/shared/pagination';
import { hasAtLeast } from '@bindery/shared/roles';
import { ContentDeps, nowOf, SOURCE } from './content-deps';
import { collectionMessage, spaceMessage } from './messages';
import { collectionItem, OrgView } from './org-view';
import { assertCanCreateUnder, conflictNothing, liveParent, pointers } from './parents';
import { placement } from './placement';
import { pageOfSpaces } from './spaces.service';
import { transferItems } from './transfer';

type CollectionEvent = typeof E.collectionCreated;
const collectionEvent = (
  def: CollectionEvent,
  c: CollectionRecord,
  changedFields: string[] = [],
  deleted: { spaces: string[]; collections: string[] } = { spaces: [], collections: [] },
) =>
  def.create(
    SOURCE,
    c._id,
    { organizationId: c.organizationId, collectionId: c._id, changedFields, parent: c.parent ?? undefined, deletedSpaces: deleted.spaces, deletedCollections: deleted.collections },
    c.organizationId,
  );

/** A live collection and the caller's view of its organization; 404 unless the caller can read it. */
export async function visibleCollection(deps: ContentDeps, caller: Caller, id: string, session?: ClientSession) {
  const collection = await deps.collections.findLive(id, session);
  if (!collection) throw notFound('Collection');
  const view = await OrgView.load(deps, collection.organizationId, caller.userId, { session });
  const role = view.roleOf(collectionItem(collection));
  assertRole(role, 'read', 'collection', 'Reading');
  return { collection, view, role };
}

export async function createCollection(deps: ContentDeps, caller: Caller, req: pb.CreateCollectionRequest): Promise<pb.Collection> {
  const title = checkContentTitle(req.title ?? 'Untitled');
  const created = await deps.transaction(async (session) => {
    const view = await OrgView.load(deps, req.organizationId, caller.userId, { session });
    if (!view.principal.member) throw notFound('Organization');
    const parent = req.parent ? await liveParent(deps, view, req.parent, session) : null;
    if (parent) assertCanCreateUnder(view, parent);
    else assertCanCreateInOrganization(view.principal);
    const now = nowOf(deps);
    const id = newId();
    const { position } = await placement(deps, req.organizationId, parent?._id ?? null, { kind: 'collection', id }, undefined, session);
    const record: CollectionRecord = {
      _id: id,
      organizationId: req.organizationId,
      title,
      parent: parent?._id ?? null,
      defaultLevel: 'inherit',
      position,
      createdAt: now,
      updatedAt: now,
    };
    await deps.collections.insert(record, [collectionEvent(E.collectionCreated, record)], session);
    return { record, role: view.roleOf(collectionItem(record)) };
  });
  return collectionMessage(created.record, created.role);
}

export async function getCollection(deps: ContentDeps, caller: Caller, id: string): Promise<pb.Collection> {
  const { collection, role } = await visibleCollection(deps, caller, id);
  return collectionMessage(collection, role);
}

/** The collections the caller can see, by creation; `nested` false: the top level only. */
export async function listCollections(deps: ContentDeps, caller: Caller, req: pb.ListCollectionsRequest): Promise<pb.ListCollectionsResponse> {
  const view = await OrgView.load(deps, req.organizationId, caller.userId);
  if (!view.principal.member) throw notFound('Organization');
  const limit = resolveLimit(req.page?.limit);
  const cursor = decodeCursor(req.page?.page || undefined);
  const visible = view
    .liveCollections()
    .filter((c) => req.nested || c.parent === null)
    .map((c) => ({ c, role: view.roleOf(collectionItem(c)) }))
    .filter((x) => hasAtLeast(x.role, 'read'))
    .sort((a, b) => (a.c.createdAt < b.c.createdAt ? -1 : a.c.createdAt > b.c.createdAt ? 1 : a.c._id < b.c._id ? -1 : 1));
  const start = cursor ? visible.findIndex((x) => x.c.createdAt > String(cursor.k) || (x.c.createdAt === cursor.k && x.c._id > cursor.id)) : 0;
  const rows = start < 0 ? [] : visible.slice(start, start + limit + 1);
  const page = toPage(
    rows,
    limit,
    visible.length,
    (x) => ({ k: x.c.createdAt, id: x.c._id }),
    (x) => collectionMessage(x.c, x.role),
  );
  return { items: page.items, page: { count: page.count, nextPage: page.nextPage } };
}

export async function updateCollection(deps: ContentDeps, caller: Caller, req: pb.UpdateCollectionRequest): Promise<pb.Collection> {
  const { collection, role } = await visibleCollection(deps, caller, req.collectionId);
  assertRole(role, 'admin', 'collection', 'Changing the collection');
  const set: Partial<CollectionRecord> = {};
  const unset: string[] = [];
  if (req.title !== undefined) {
    set.title = checkContentTitle(req.title);
  }
  if (req.description) {
    const d = req.description.value;
    if (d !== undefined) checkCollectionDescription(d);
    if (d === undefined) unset.push('description');
    else set.description = d;
  }
  if (req.defaultLevel) {
    const level = req.defaultLevel.value ?? null;
    if (!isLevel(level)) throw invalid('defaultLevel must be a role, inherit or null.');
    set.defaultLevel = level;
  }
  const changed = [...Object.keys(set), ...unset];
  if (!changed.length) return collectionMessage(collection, role);
  set.updatedAt = nowOf(deps);
  const updated = await deps.collections.update(collection._id, set, unset, [collectionEvent(E.collectionUpdated, { ...collection, ...set }, changed)]);
  if (!updated) throw notFound('Collection');
  return getCollection(deps, caller, collection._id);
}

/**
 * Deletes the collection and everything still live inside it, in one transaction: each item gets the
 * same `deletedAt` (and `deletedWith` naming this collection), so each space inside can be restored
 * for 7 days, bringing back the collections on its path.
 */
export async function deleteCollection(deps: ContentDeps, caller: Caller, id: string): Promise<{ deleted: boolean }> {
  const found = await deps.collections.findIncludingDeleted(id);
  if (!found) throw notFound('Collection');
  const view = await OrgView.load(deps, found.organizationId, caller.userId, { includeDeleted: true });
  assertRole(view.roleOf(collectionItem(found)), 'admin', 'collection', 'Deleting the collection');
  if (found.deletedAt) return { deleted: false };
  const deleted = await deps.transaction(async (session) => {
    await deps.locks.take(found.organizationId, session);
    const live = await deps.collections.ofOrganization(found.organizationId, { session });
    if (!live.some((c) => c._id === id)) return false;
    const children = childrenOf(live);
    const collections = subtreeOf(id, children);
    const spaces = await deps.spaces.inCollections(found.organizationId, collections, { session });
    const at = nowOf(deps);
    for (const s of spaces) {
      const event = E.spaceDeleted.create(SOURCE, s._id, { organizationId: s.organizationId, spaceId: s._id, changedFields: [], parent: s.parent ?? undefined }, s.organizationId);
      await deps.spaces.softDelete(s._id, at, id, [event], session);
    }
    for (const c of collections) {
      const events = c === id ? [collectionEvent(E.collectionDeleted, found, [], { spaces: spaces.map((s) => s._id), collections: collections.filter((x) => x !== id) })] : [];
      await deps.collections.softDelete(c, at, c === id ? undefined : id, events, session);
    }
    return true;
  });
  return { deleted };
}

export async function listCollectionSpaces(deps: ContentDeps, caller: Caller, req: pb.ListCollectionSpacesRequest): Promise<pb.ListSpacesResponse> {
  const { collection, view } = await visibleCollection(deps, caller, req.collectionId);
  const page = await pageOfSpaces(deps, view, { parent: collection._id }, req.page, 'position');
  return { items: page.items.map((i) => spaceMessage(i.space, i.role)), page: page.page };
}

export async function moveCollection(deps: ContentDeps, caller: Caller, req: pb.MoveRequest): Promise<pb.Collection> {
  await deps.transaction(async (session) => {
    const { collection, view, role } = await visibleCollection(deps, caller, req.id, session);
    assertRole(role, 'admin', 'collection', 'Moving the collection');
    await deps.locks.take(collection.organizationId, session);
    const target = req.parent === undefined ? collection.parent : (req.parent.value ?? null);
    if (target !== collection.parent) {
      assertNoCycle(collection._id, target, (id) => view.collectionRecord(id)?.parent);
      const parent = target ? await liveParent(deps, view, target, session) : null;
      if (parent) assertCanCreateUnder(view, parent);
      else assertCanCreateInOrganization(view.principal);
    }
    const at = await placement(deps, collection.organizationId, target, { kind: 'collection', id: collection._id }, pointers(req.position), session);
    if (target === collection.parent && at.samePlace) throw conflictNothing();
    const moved = { ...collection, parent: target, position: at.position, updatedAt: nowOf(deps) };
    await deps.collections.update(
      collection._id,
      { parent: target, position: at.position, updatedAt: moved.updatedAt },
      [],
      [collectionEvent(E.collectionMoved, moved, ['parent', 'position'])],
      session,
    );
  });
  return getCollection(deps, caller, req.id);
}

export async function transferCollection(deps: ContentDeps, caller: Caller, req: pb.TransferRequest): Promise<pb.Collection> {
  const { collection, view, role } = await visibleCollection(deps, caller, req.id);
  assertRole(role, 'admin', 'collection', 'Transferring the collection');
  await transferItems(deps, view, req.organizationId, { kind: 'collection', id: collection._id });
  return getCollection(deps, caller, collection._id);
}
