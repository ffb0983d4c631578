import { PageNode } from '../model/page-node';
import { MergeConflict, RevisionSnapshot } from './merge-types';
import { MergedItem, mergeSequences } from './sequence-diff3';

/** The child ids under a page in one revision (null: the top level); none when the page is not there. */
function childrenIn(snapshot: RevisionSnapshot, parent: string | null): string[] {
  return parent === null ? snapshot.root.children : (snapshot.pages.get(parent)?.children ?? []);
}

/**
 * Where overlapping order changes meet (both sides inserted at one place, or reordered one stretch
 * differently), ours' stretch comes first and theirs' pages that ours does not have follow. Children
 * are ids, unique in a list, so nothing needs reporting: no page is lost or doubled, and an order is
 * cheap to fix.
 */
function oursThenTheirs(ours: string[], theirs: string[]): Array<{ item: string; from: 'ours' | 'theirs' }> {
  const mine = new Set(ours);
  return [...ours.map((item) => ({ item, from: 'ours' as const })), ...theirs.filter((id) => !mine.has(id)).map((item) => ({ item, from: 'theirs' as const }))];
}

/**
 * One page of each id. A page one side moved appears twice (where the other side kept it, and where
 * the mover put it): the mover's place wins, ours' when both moved it.
 */
function distinct(items: MergedItem<string>[]): string[] {
  const rank = (m: MergedItem<string>) => (m.placed ? (m.from === 'ours' ? 0 : 1) : 2);
  const chosen = new Map<string, MergedItem<string>>();
  for (const m of items) {
    const before = chosen.get(m.item);
    if (!before || rank(m) < rank(before)) chosen.set(m.item, m);
  }
  return items.filter((m) => chosen.get(m.item) === m).map((m) => m.item);
}

/**
 * Both sides reordered the same pages, differently: the pages all three lists hold are in a new
 * relative order on each side, and the two sides hold the same pages. Two reorders of one list are
 * one person's intent against another's; ours' order stands, unreported, because an order loses no
 * content and is cheap to redo (diff3 would interleave the two into an order neither side chose).
 */
function bothReordered(base: string[], ours: string[], theirs: string[]): boolean {
  const [inBase, inOurs, inTheirs] = [new Set(base), new Set(ours), new Set(theirs)];
  if (ours.length !== theirs.length || !ours.every((id) => inTheirs.has(id))) return false;
  const common = (list: string[]) => list.filter((id) => inBase.has(id) && inOurs.has(id) && inTheirs.has(id)).join('\n');
  const [b, o, t] = [common(base), common(ours), common(theirs)];
  return o !== b && t !== b && o !== t;
}

/** The members in the merged order; a member no list places (inconsistent input) still gets a place, a deterministic one. */
function ordered(order: string[], belongs: Set<string>): string[] {
  const kept = order.filter((id) => belongs.has(id));
  const placed = new Set(kept);
  return [...kept, ...[...belongs].filter((id) => !placed.has(id)).sort()];
}

/**
 * The merged children order of every parent. Membership comes from the merged `parent` fields; the
 * order from a diff3 of the three child lists, so each insertion keeps its place among its neighbours,
 * removals apply, and a reorder on one side applies.
 */
export function mergeChildren(pages: Map<string, PageNode>, base: RevisionSnapshot, ours: RevisionSnapshot, theirs: RevisionSnapshot): string[] {
  const members = new Map<string | null, string[]>();
  for (const page of pages.values()) {
    if (!members.has(page.parent)) members.set(page.parent, []);
    members.get(page.parent)!.push(page.id);
  }

  const orderOf = (parent: string | null): string[] => {
    const belongs = new Set(members.get(parent) ?? []);
    const lists = [base, ours, theirs].map((snapshot) => childrenIn(snapshot, parent));
    const [b, o, t] = lists.map((list) => list.join('\n'));
    // a list changed on one side only is that side's (what diff3 would answer, without running it)
    if (o === t || t === b || o === b) return ordered(o === b ? lists[2] : lists[1], belongs);
    const order = bothReordered(lists[0], lists[1], lists[2])
      ? lists[1]
      : distinct(mergeSequences(lists[0], lists[1], lists[2], String, { resolve: oursThenTheirs, uniqueItems: true }).items);
    return ordered(order, belongs);
  };
  for (const page of pages.values()) {
    const children = orderOf(page.id);
    if (children.join('\n') !== page.children.join('\n')) pages.set(page.id, { ...page, children });
  }
  return orderOf(null);
}

/** Tree rules the per-page merge cannot see: a parent that is gone, cycles made of two moves, and sibling slugs. */
export function checkTree(pages: Map<string, PageNode>, rootChildren: string[], ours: RevisionSnapshot): MergeConflict[] {
  const conflicts: MergeConflict[] = [];
  // each page is walked up once: a walk stops at a page an earlier walk finished (`done`)
  const done = new Set<string>();
  for (const page of [...pages.values()].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    if (page.parent !== null && !pages.has(page.parent)) conflicts.push({ kind: 'tree', page: page.id, field: 'parent', reason: `its parent ${page.parent} is deleted` });
    const path: string[] = [];
    const onPath = new Set<string>();
    let at: PageNode | undefined = page;
    while (at && !done.has(at.id) && !onPath.has(at.id)) {
      path.push(at.id);
      onPath.add(at.id);
      at = at.parent === null ? undefined : pages.get(at.parent);
    }
    // coming back to a page of this walk: the merged parents form a cycle (no page in it reaches the top)
    if (at && onPath.has(at.id)) {
      const cycle = path.slice(path.indexOf(at.id)).sort();
      conflicts.push({ kind: 'tree', page: cycle[0], field: 'parent', reason: `the merged moves make a cycle: ${cycle.join(', ')}` });
    }
    path.forEach((id) => done.add(id));
  }

  const siblingsOf = [{ parent: null as string | null, children: rootChildren }, ...[...pages.values()].map((p) => ({ parent: p.id as string | null, children: p.children }))];
  for (const { parent, children } of siblingsOf) {
    const bySlug = new Map<string, string[]>();
    for (const id of children) {
      const slug = pages.get(id)!.slug;
      if (!bySlug.has(slug)) bySlug.set(slug, []);
      bySlug.get(slug)!.push(id);
    }
    const oursThere = new Set(childrenIn(ours, parent).filter((id) => ours.pages.get(id)?.parent === parent));
    for (const [slug, ids] of bySlug) {
      // a duplicate ours already had is not the merge's doing
      if (ids.length < 2 || ids.every((id) => oursThere.has(id) && ours.pages.get(id)!.slug === slug)) continue;
      for (const id of ids.slice(1)) conflicts.push({ kind: 'tree', page: id, field: 'slug', reason: `slug "${slug}" is also used by sibling ${ids[0]}` });
    }
  }
  return conflicts;
}
