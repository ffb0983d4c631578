import { commonSubsequence } from './sequence-diff';

/** One side's change to the base: base[start, end) replaced by `items` (start === end: an insertion before base[start]). */
export interface ChangedRegion<T> {
  start: number;
  end: number;
  items: T[];
}

/** Base stretches that both sides changed differently (base[start, end), each side's version of it). */
export interface SequenceConflict<T> {
  start: number;
  end: number;
  base: T[];
  ours: T[];
  theirs: T[];
}

/** One emitted item: where it came from and whether a side put it there (rather than keeping a base item in place). */
export interface MergedItem<T> {
  item: T;
  from: 'base' | 'ours' | 'theirs';
  placed: boolean;
}

export interface SequenceMerge<T> {
  items: MergedItem<T>[];
  conflicts: SequenceConflict<T>[];
}

/**
 * The changes that turn `base` into `side`, as the gaps between the matched items of a common
 * subsequence. With `split`, a replaced stretch becomes a removal followed by an insertion after it:
 * right for lists of unique ids, where a replacement is never an edit of an item but pages leaving and
 * others arriving (appended after them, as a move or an insert does by default).
 */
export function changedRegions<T>(base: readonly T[], side: readonly T[], key: (item: T) => string, split = false): ChangedRegion<T>[] {
  const pairs = commonSubsequence(base.map(key), side.map(key));
  const regions: ChangedRegion<T>[] = [];
  let b = 0;
  let s = 0;
  for (const [i, j] of [...pairs, [base.length, side.length] as [number, number]]) {
    if (split && i > b && j > s) regions.push({ start: b, end: i, items: [] }, { start: i, end: i, items: side.slice(s, j) });
    else if (i > b || j > s) regions.push({ start: b, end: i, items: side.slice(s, j) });
    b = i + 1;
    s = j + 1;
  }
  return regions;
}

/**
 * Where a region sits on a line of doubled positions: base item i at 2i + 1, the gap before it at 2i.
 * A replacement covers its items only, an insertion its gap, so edits to neighbouring items do not
 * touch, while an insertion strictly inside another side's replaced stretch (or at the same gap as
 * another insertion) does.
 */
function span(region: ChangedRegion<unknown>): [number, number] {
  return region.start === region.end ? [2 * region.start, 2 * region.start] : [2 * region.start + 1, 2 * region.end - 1];
}

/** base[start, end) with the given regions (all inside it) applied. */
function applyRegions<T>(base: readonly T[], start: number, end: number, regions: ChangedRegion<T>[]): T[] {
  const out: T[] = [];
  let at = start;
  for (const region of regions) {
    out.push(...base.slice(at, region.start), ...region.items);
    at = region.end;
  }
  out.push(...base.slice(at, end));
  return out;
}

/**
 * Three-way merge of sequences (diff3): each side's changes to the base are found with a common
 * subsequence; changes to stretches the other side left alone apply as they are; overlapping changes
 * that end in the same items apply once; other overlapping changes are conflicts. A conflict's items
 * are `resolve(ours, theirs, base)`, ours' version by default (the caller decides whether it may stand).
 * `uniqueItems` (lists of ids) splits replacements as `changedRegions` describes.
 */
export function mergeSequences<T>(
  base: readonly T[],
  ours: readonly T[],
  theirs: readonly T[],
  key: (item: T) => string,
  options: { resolve?: (ours: T[], theirs: T[], base: T[]) => Array<{ item: T; from: 'ours' | 'theirs' }>; uniqueItems?: boolean } = {},
): SequenceMerge<T> {
  const resolve = options.resolve ?? ((o: T[]) => o.map((item) => ({ item, from: 'ours' as const })));
  const tagged = [
    ...changedRegions(base, ours, key, options.uniqueItems).map((region) => ({ region, side: 'ours' as const })),
    ...changedRegions(base, theirs, key, options.uniqueItems).map((region) => ({ region, side: 'theirs' as const })),
  ].sort((x, y) => span(x.region)[0] - span(y.region)[0] || (x.side === 'ours' ? -1 : 1));

  const items: MergedItem<T>[] = [];
  const conflicts: SequenceConflict<T>[] = [];
  let at = 0;
  const keepBase = (until: number) => {
    for (; at < until; at += 1) items.push({ item: base[at], from: 'base', placed: false });
  };
  for (let i = 0; i < tagged.length;) {
    // a cluster: regions whose spans overlap, transitively (one side's own regions never overlap)
    const cluster = [tagged[i]];
    let reach = span(tagged[i].region)[1];
    for (i += 1; i < tagged.length && span(tagged[i].region)[0] <= reach; i += 1) {
      cluster.push(tagged[i]);
      reach = Math.max(reach, span(tagged[i].region)[1]);
    }
    const start = Math.min(...cluster.map((c) => c.region.start));
    const end = Math.max(...cluster.map((c) => c.region.end));
    keepBase(start);
    const baseSlice = base.slice(start, end);
    const versionOf = (side: 'ours' | 'theirs') =>
      applyRegions(
        base,
        start,
        end,
        cluster.filter((c) => c.side === side).map((c) => c.region),
      );
    const baseKeys = new Set(baseSlice.map(key));
    const emit = (item: T, from: 'ours' | 'theirs') => items.push({ item, from, placed: !baseKeys.has(key(item)) });
    const sides = new Set(cluster.map((c) => c.side));
    if (sides.size === 1) {
      const side = cluster[0].side;
      for (const item of versionOf(side)) emit(item, side);
    } else {
      const mine = versionOf('ours');
      const yours = versionOf('theirs');
      if (mine.length === yours.length && mine.every((item, n) => key(item) === key(yours[n]))) for (const item of mine) emit(item, 'ours');
      else {
        conflicts.push({ start, end, base: baseSlice, ours: mine, theirs: yours });
        for (const { item, from } of resolve(mine, yours, baseSlice)) emit(item, from);
      }
    }
    at = end;
  }
  keepBase(base.length);
  return { items, conflicts };
}
