import { invalid } from '@bindery/platform/errors';
import type { ContentKind } from './records';

/** A space or a collection among its siblings (the children of one parent), in order. */
export interface Sibling {
  kind: ContentKind;
  id: string;
  position: number;
}

export interface Pointer {
  kind: ContentKind;
  id: string;
}

export const POSITION_STEP = 1024;

export function bySiblingOrder(a: Sibling, b: Sibling): number {
  return a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

const same = (a: Pointer, b: Pointer) => a.kind === b.kind && a.id === b.id;

/**
 * Where an item goes among `siblings` (its future siblings, itself excluded, in order): before
 * `before`, after `after`, both (they must be neighbours), or at the end. Answers the index it takes.
 */
export function placementIndex(item: Pointer, siblings: readonly Sibling[], position: { before?: Pointer; after?: Pointer } = {}): number {
  const indexOf = (p: Pointer, field: string) => {
    if (same(p, item)) throw invalid(`position.${field} points at the item being moved.`);
    const i = siblings.findIndex((s) => same(s, p));
    if (i < 0) throw invalid(`position.${field}: the ${p.kind} ${p.id} is not in the destination.`);
    return i;
  };
  const { before, after } = position;
  if (before && after) {
    const b = indexOf(before, 'before');
    const a = indexOf(after, 'after');
    if (a + 1 !== b) throw invalid('position.before and position.after are not next to each other.');
    return b;
  }
  if (before) return indexOf(before, 'before');
  if (after) return indexOf(after, 'after') + 1;
  return siblings.length;
}

/**
 * The position value for index `i` among `siblings` (between its neighbours), or undefined when
 * the neighbours are too close to fit one more in (then the siblings are renumbered first).
 */
export function positionAt(siblings: readonly Sibling[], i: number): number | undefined {
  const prev = siblings[i - 1]?.position;
  const next = siblings[i]?.position;
  if (prev === undefined && next === undefined) return POSITION_STEP;
  if (prev === undefined) return next! - POSITION_STEP;
  if (next === undefined) return prev + POSITION_STEP;
  const mid = (prev + next) / 2;
  return mid > prev && mid < next && next - prev > 1e-6 ? mid : undefined;
}

/** Collection id → the ids of its child collections, from an organization's collections. */
export function childrenOf(collections: ReadonlyArray<{ _id: string; parent: string | null }>): Map<string, string[]> {
  const children = new Map<string, string[]>();
  for (const c of collections) if (c.parent) children.set(c.parent, [...(children.get(c.parent) ?? []), c._id]);
  return children;
}

/** The collections under `root` (itself included), from a parent lookup of an organization's collections. */
export function subtreeOf(root: string, children: ReadonlyMap<string, readonly string[]>): string[] {
  const out: string[] = [];
  const stack = [root];
  const seen = new Set<string>();
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(id);
    stack.push(...(children.get(id) ?? []));
  }
  return out;
}

/** Moving `collection` under `target` is a cycle when the target is the collection or inside it. */
export function assertNoCycle(collection: string, target: string | null, parentOf: (id: string) => string | null | undefined): void {
  const seen = new Set<string>();
  for (let at: string | null | undefined = target; at; at = parentOf(at)) {
    if (at === collection) throw invalid('parent: a collection cannot be moved into itself or into one of its own collections.');
    if (seen.has(at)) break;
    seen.add(at);
  }
}
