import { ClientSession } from '@bindery/platform/mongo';
import { bySiblingOrder, placementIndex, Pointer, POSITION_STEP, positionAt, Sibling } from '@bindery/content/domain';
import type { ContentDeps } from './content-deps';

/** The spaces and collections of one parent, in order. */
export async function siblingsOf(deps: ContentDeps, organizationId: string, parent: string | null, session?: ClientSession): Promise<Sibling[]> {
  const spaces = await deps.spaces.siblings(organizationId, parent, session);
  const collections = await deps.collections.siblings(organizationId, parent, session);
  return [...spaces, ...collections].sort(bySiblingOrder);
}

/**
 * The position an item takes under `parent` (before/after a sibling, or at the end), and whether it
 * is already exactly there. Renumbers the siblings when two neighbours are too close for another one
 * between them. Run it inside the organization's tree lock.
 */
export async function placement(
  deps: ContentDeps,
  organizationId: string,
  parent: string | null,
  item: Pointer,
  position: { before?: Pointer; after?: Pointer } | undefined,
  session: ClientSession,
): Promise<{ position: number; samePlace: boolean }> {
  const all = await siblingsOf(deps, organizationId, parent, session);
  const current = all.findIndex((s) => s.kind === item.kind && s.id === item.id);
  let others = all.filter((_, i) => i !== current);
  const index = placementIndex(item, others, position);
  const samePlace = current >= 0 && index === current;
  let at = positionAt(others, index);
  if (at === undefined) {
    others = others.map((s, i) => ({ ...s, position: (i + 1) * POSITION_STEP }));
    for (const s of others) await (s.kind === 'space' ? deps.spaces : deps.collections).setPosition(s.id, s.position, session);
    at = positionAt(others, index)!;
  }
  return { position: at, samePlace };
}
