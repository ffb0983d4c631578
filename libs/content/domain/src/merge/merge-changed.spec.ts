import fc from 'fast-check';
import { canonicalJson } from '../model/content-hash';
import { FileNode } from '../model/page-node';
import { file, setBlocks, T0, textsAt } from './merge-fixtures';
import { ChangedKeys, mergeChanged, MergeDelta, RevisionReader } from './merge-changed';
import { mergeRevisions } from './merge-revisions';
import { RevisionSnapshot } from './merge-types';

/**
 * mergeChanged reads only what the changes reach; its answer must be the whole-revision merge's.
 * Random trees, and two sides making random edits anywhere (so conflicts of every kind occur): titles,
 * slugs (mostly kept unique among siblings, as ApplyChanges keeps them; sometimes not, as an imported
 * revision might), moves, reorders, deletions, insertions, block edits and files. The delta applied to ours must give the whole merge's result.
 */

type Json = Record<string, unknown>;

function clone(s: RevisionSnapshot): RevisionSnapshot {
  return { root: { children: [...s.root.children] }, pages: new Map(s.pages), documents: new Map(s.documents), files: new Map(s.files) };
}

function childrenOf(s: RevisionSnapshot, parent: string | null): string[] {
  return parent === null ? s.root.children : s.pages.get(parent)!.children;
}

function setChildren(s: RevisionSnapshot, parent: string | null, children: string[], now: string): void {
  if (parent === null) s.root = { children };
  else s.pages.set(parent, { ...s.pages.get(parent)!, children, updatedAt: now });
}

function baseRevision(parents: number[], blocks: number[]): RevisionSnapshot {
  const s: RevisionSnapshot = { root: { children: [] }, pages: new Map(), documents: new Map(), files: new Map([0, 1, 2].map((i) => [`f${i}`, file(`f${i}`)])) };
  parents.forEach((choice, i) => {
    const id = `p${i}`;
    const parent = i === 0 || choice % (i + 1) === 0 ? null : `p${choice % i}`;
    s.pages.set(id, { id, type: 'document', title: id.toUpperCase(), slug: id, parent, children: [], createdAt: T0, updatedAt: T0 });
    setChildren(s, parent, [...childrenOf(s, parent), id], T0);
    setBlocks(
      s,
      id,
      Array.from({ length: blocks[i] ?? 1 }, (_, k) => `${id}.b${k}`),
      T0,
    );
  });
  return s;
}

const OPS = ['title', 'slug', 'anySlug', 'move', 'reorder', 'delete', 'insert', 'append', 'replaceFirst', 'file', 'dropFile'] as const;
const seedArb = fc.record({ op: fc.constantFrom(...OPS), x: fc.nat(), y: fc.nat(), z: fc.nat({ max: 3 }) });

/** Applies random edits the way ApplyChanges would, keeping parents, children and sibling slugs consistent. */
function edited(base: RevisionSnapshot, side: string, seeds: Array<{ op: (typeof OPS)[number]; x: number; y: number; z: number }>): RevisionSnapshot {
  const s = clone(base);
  const now = `2024-02-0${side === 'A' ? 1 : 2}T00:00:00.000Z`;
  seeds.forEach(({ op, x, y, z }, n) => {
    const ids = [...s.pages.keys()].sort();
    const pick = <T>(list: T[], k: number): T => list[k % list.length];
    const tag = `${side}${n}`;
    if (op === 'file') return void s.files.set(`f${z}`, file(`f${z}`, `${tag}.png`));
    if (op === 'dropFile') return void s.files.delete(`f${z}`);
    if (op === 'insert') {
      const into = pick([null, ...ids], y);
      const id = `n${tag}`;
      s.pages.set(id, { id, type: 'document', title: id, slug: id, parent: into, children: [], createdAt: now, updatedAt: now });
      setBlocks(s, id, [`${id}.b0`], now);
      const siblings = childrenOf(s, into);
      setChildren(s, into, [...siblings.slice(0, z), id, ...siblings.slice(z)], now);
      return;
    }
    if (!ids.length) return;
    const id = pick(ids, x);
    const page = s.pages.get(id)!;
    const within = (candidate: string): boolean => candidate === id || (s.pages.get(candidate)!.parent !== null && within(s.pages.get(candidate)!.parent!));
    if (op === 'title') s.pages.set(id, { ...page, title: `title ${z}`, updatedAt: now });
    else if (op === 'slug') {
      const slug = `s${z}`;
      if (!childrenOf(s, page.parent).some((c) => s.pages.get(c)!.slug === slug)) s.pages.set(id, { ...page, slug, updatedAt: now });
    } else if (op === 'anySlug') {
      // a sibling's slug, duplicated
      const siblings = childrenOf(s, page.parent).filter((c) => c !== id);
      if (siblings.length) s.pages.set(id, { ...page, slug: s.pages.get(pick(siblings, y))!.slug, updatedAt: now });
    } else if (op === 'append') setBlocks(s, id, [...textsAt(s, id), `${id}.${tag}`], now);
    else if (op === 'replaceFirst') setBlocks(s, id, [`${id}.${tag}`, ...textsAt(s, id).slice(1)], now);
    else if (op === 'reorder') {
      const list = [...page.children];
      if (list.length < 2) return;
      const [i, j] = [y % list.length, z % list.length];
      [list[i], list[j]] = [list[j], list[i]];
      setChildren(s, id, list, now);
    } else if (op === 'delete') {
      setChildren(
        s,
        page.parent,
        childrenOf(s, page.parent).filter((c) => c !== id),
        now,
      );
      const drop = (d: string): void => (s.pages.get(d)!.children.forEach(drop), void s.pages.delete(d));
      drop(id);
    } else if (op === 'move') {
      const into = pick([null, ...ids.filter((c) => !within(c))], y);
      if (into === page.parent) return;
      if (childrenOf(s, into).some((c) => s.pages.get(c)!.slug === page.slug)) return;
      setChildren(
        s,
        page.parent,
        childrenOf(s, page.parent).filter((c) => c !== id),
        now,
      );
      s.pages.set(id, { ...s.pages.get(id)!, parent: into, updatedAt: now });
      const siblings = childrenOf(s, into);
      setChildren(s, into, [...siblings.slice(0, z), id, ...siblings.slice(z)], now);
    }
  });
  return s;
}

/** A reader over a snapshot that records which pages it was asked for. */
function reader(s: RevisionSnapshot, asked: Set<string>): RevisionReader {
  const some = <T>(map: Map<string, T>, keys: readonly string[]) => new Map(keys.flatMap((k) => (map.has(k) ? [[k, map.get(k)!] as [string, T]] : [])));
  return {
    pagesOf: async (ids) => (ids.forEach((id) => asked.add(id)), some(s.pages, ids)),
    root: async () => s.root,
    documents: async (hashes) => some(s.documents, hashes),
    filesOf: async (ids) => some(s.files, ids),
  };
}

function changedKeys(base: RevisionSnapshot, ours: RevisionSnapshot, theirs: RevisionSnapshot): ChangedKeys {
  const differ = <T>(maps: Array<Map<string, T>>) => {
    const keys = new Set(maps.flatMap((m) => [...m.keys()]));
    return new Set([...keys].filter((k) => new Set(maps.map((m) => (m.has(k) ? canonicalJson(m.get(k)) : ''))).size > 1));
  };
  return {
    pages: differ([base.pages, ours.pages, theirs.pages]),
    root: new Set([base, ours, theirs].map((s) => s.root.children.join('\n'))).size > 1,
    files: differ([base.files, ours.files, theirs.files]),
  };
}

function appliedTo(ours: RevisionSnapshot, delta: MergeDelta) {
  const pages = new Map(ours.pages);
  for (const [id, page] of delta.pages) {
    if (page) pages.set(id, page);
    else pages.delete(id);
  }
  const files = new Map<string, FileNode>(ours.files);
  for (const [id, f] of delta.files) {
    if (f) files.set(id, f);
    else files.delete(id);
  }
  return { root: delta.root ?? ours.root, pages, files };
}

const sorted = <T>(map: Map<string, T>) => Object.fromEntries([...map].sort(([a], [b]) => (a < b ? -1 : 1))) as Json;

describe('mergeChanged', () => {
  const treeArb = fc.tuple(fc.array(fc.nat(), { minLength: 1, maxLength: 24, size: 'max' }), fc.array(fc.nat({ max: 3 }), { maxLength: 24, size: 'max' }));
  const editsArb = fc.array(seedArb, { maxLength: 6 });

  it('answers what merging the whole revisions answers', async () => {
    let clean = 0;
    await fc.assert(
      fc.asyncProperty(treeArb, editsArb, editsArb, async ([parents, blocks], a, b) => {
        const base = baseRevision(parents, blocks);
        const [ours, theirs] = [edited(base, 'A', a), edited(base, 'B', b)];
        const whole = mergeRevisions(base, ours, theirs, 'now');
        const asked = new Set<string>();
        const delta = await mergeChanged(reader(base, asked), reader(ours, asked), reader(theirs, asked), changedKeys(base, ours, theirs), 'now');
        expect(delta).not.toBeNull();
        expect(delta!.conflicts).toEqual(whole.conflicts);
        if (whole.conflicts.length) return;
        clean += 1;
        const result = appliedTo(ours, delta!);
        expect(result.root).toEqual(whole.root);
        expect(sorted(result.pages)).toEqual(sorted(whole.pages));
        expect(sorted(result.files)).toEqual(sorted(whole.files));
        expect([delta!.changedPages, delta!.deletedPages]).toEqual([whole.changedPages, whole.deletedPages]);
        for (const page of result.pages.values()) if (page.document) expect(ours.documents.get(page.document) ?? delta!.documents.get(page.document)).toBeDefined();
      }),
      { numRuns: 600 },
    );
    // the runs must include clean merges, not only conflicts
    expect(clean).toBeGreaterThan(100);
  });

  it('two edited leaves in a tree of 1,000 pages read a few dozen pages, not the tree', async () => {
    const parents = Array.from({ length: 1000 }, (_, i) => (i < 10 ? 0 : i % 10));
    const base = baseRevision(parents, []);
    const ours = clone(base);
    setBlocks(ours, 'p500', ['ours'], 'x');
    const theirs = clone(base);
    setBlocks(theirs, 'p731', ['theirs'], 'y');
    const asked = new Set<string>();
    const delta = await mergeChanged(reader(base, asked), reader(ours, asked), reader(theirs, asked), changedKeys(base, ours, theirs), 'now');
    expect(delta!.conflicts).toEqual([]);
    expect([...delta!.pages.keys()]).toEqual(['p731']);
    expect(delta!.changedPages).toEqual(['p731']);
    expect(asked.size).toBeLessThan(10);
  });
});
