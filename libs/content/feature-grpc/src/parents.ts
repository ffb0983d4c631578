import { conflict, forbidden, invalid } from '@bindery/platform/errors';
import { ClientSession } from '@bindery/platform/mongo';
import { CollectionRecord, Pointer } from '@bindery/content/domain';
import { contentV1 as pb } from '@bindery/shared/contracts';
import { hasAtLeast } from '@bindery/shared/roles';
import type { ContentDeps } from './content-deps';
import { collectionItem, OrgView } from './org-view';

/**
 * The live collection named as a parent, in the view's organization. One the caller cannot see is
 * the same 400 as one that does not exist.
 */
export async function liveParent(deps: ContentDeps, view: OrgView, id: string, session: ClientSession): Promise<CollectionRecord> {
  const c = await deps.collections.findLive(id, session);
  if (!c || c.organizationId !== view.organizationId || !hasAtLeast(view.roleOf(collectionItem(c)), 'read')) {
    throw invalid(`parent: there is no collection ${id} in this organization.`);
  }
  // Whatever is added under it conflicts with a concurrent delete, move or transfer of it.
  await deps.collections.touch(c._id, session);
  return c;
}

/** Creating in (or moving into) a collection needs the create role on it. */
export function assertCanCreateUnder(view: OrgView, parent: CollectionRecord): void {
  if (!hasAtLeast(view.roleOf(collectionItem(parent)), 'create')) throw forbidden('Adding content to this collection needs the create role on it.');
}

/** The position of a move request as domain pointers. */
export function pointers(position: pb.ContentPosition | undefined): { before?: Pointer; after?: Pointer } | undefined {
  if (!position) return undefined;
  const p = (x: pb.ContentPointer | undefined): Pointer | undefined => {
    if (!x) return undefined;
    if (x.type !== 'space' && x.type !== 'collection') throw invalid('position: a pointer is a space or a collection.');
    return { kind: x.type, id: x.id };
  };
  return { before: p(position.before), after: p(position.after) };
}

export const conflictNothing = () => conflict('The move would not change anything: the item is already there.');
