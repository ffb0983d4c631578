import fc from 'fast-check';
import { contentHash } from '../model/content-hash';
import { file, setBlocks, textsAt, textsOf, T0 } from './merge-fixtures';
import { mergeRevisions } from './merge-revisions';
import { RevisionSnapshot } from './merge-types';

/**
 * Property: two edit sets that touch disjoint parts of a revision merge cleanly, into what applying one
 * after the other gives. The base's top-level subtrees are dealt alternately to side A and side B; each
 * side edits, moves (to another parent, once per page), deletes and inserts only within its own
 * subtrees or at the top level, and adds files. Page p0 is shared: A appends blocks and sets its title,
 * B prepends blocks and sets its emoji. Reorders of one list by both sides are left out on purpose:
 * they are the overlapping case, where ours' order wins (docs/merge.md).
 */

type Side = 'A' | 'B';
type Edit =
  | { kind: 'title'; page: string; title: string }
  | { kind: 'emoji'; page: string; emoji: string }
  | { kind: 'move'; page: string; into: string | null }
  | { kind: 'delete'; page: string }
  | { kind: 'insert'; id: string; into: string | null }
  | { kind: 'append' | 'prepend'; page: string; text: string }
  | { kind: 'dropFirst'; page: string }
  | { kind: 'file'; id: string };

const OPS = ['title', 'emoji', 'move', 'move', 'delete', 'insert', 'append', 'dropFirst', 'file', 'shared'] as const;
const seed = fc.record({ op: fc.constantFrom(...OPS), x: fc.nat(), y: fc.nat() });

function clone(s: RevisionSnapshot): RevisionSnapshot {
  return {
    root: { children: [...s.root.children] },
    pages: new Map([...s.pages].map(([id, page]) => [id, { ...page, children: [...page.children] }])),
    documents: new Map(s.documents),
    files: new Map(s.files),
  };
}

/** The base: p0 (shared, a leaf with one block or more), then pages whose parents come from `parents`. */
function baseRevision(parents: number[], blocks: number[]): RevisionSnapshot {
  const s: RevisionSnapshot = { root: { children: [] }, pages: new Map(), documents: new Map(), files: new Map([['f0', file('f0')]]) };
  parents.forEach((choice, i) => {
    const id = `p${i}`;
    const parent = i === 0 || choice % i === 0 ? null : `p${choice % i}`;
    s.pages.set(id, { id, type: 'document', title: id.toUpperCase(), slug: id, parent, children: [], createdAt: T0, updatedAt: T0 });
    if (parent === null) s.root.children.push(id);
    else s.pages.get(parent)!.children.push(id);
    const count = i === 0 ? 1 + (blocks[i] ?? 0) : (blocks[i] ?? 0);
    setBlocks(
      s,
      id,
      Array.from({ length: count }, (_, k) => `${id}.b${k}`),
      T0,
    );
  });
  return s;
}

function setChildren(s: RevisionSnapshot, parent: string | null, change: (children: string[]) => string[], now: string): void {
  if (parent === null) s.root = { children: change(s.root.children) };
  else s.pages.set(parent, { ...s.pages.get(parent)!, children: change(s.pages.get(parent)!.children), updatedAt: now });
}

/** Applies one edit in place, the way ApplyChanges would (moves and inserts append to the new parent). */
function apply(s: RevisionSnapshot, edit: Edit, now: string): void {
  const page = 'page' in edit ? s.pages.get(edit.page)! : undefined;
  if (edit.kind === 'title') s.pages.set(edit.page, { ...page!, title: edit.title, updatedAt: now });
  else if (edit.kind === 'emoji') s.pages.set(edit.page, { ...page!, emoji: edit.emoji, updatedAt: now });
  else if (edit.kind === 'move') {
    setChildren(s, page!.parent, (c) => c.filter((id) => id !== edit.page), now);
    s.pages.set(edit.page, { ...s.pages.get(edit.page)!, parent: edit.into, updatedAt: now });
    setChildren(s, edit.into, (c) => [...c, edit.page], now);
  } else if (edit.kind === 'delete') {
    setChildren(s, page!.parent, (c) => c.filter((id) => id !== edit.page), now);
    const drop = (id: string): void => (s.pages.get(id)!.children.forEach(drop), void s.pages.delete(id));
    drop(edit.page);
  } else if (edit.kind === 'insert') {
    s.pages.set(edit.id, { id: edit.id, type: 'document', title: edit.id.toUpperCase(), slug: edit.id, parent: edit.into, children: [], createdAt: now, updatedAt: now });
    setBlocks(s, edit.id, [`${edit.id}.b0`], now);
    setChildren(s, edit.into, (c) => [...c, edit.id], now);
  } else if (edit.kind === 'append') setBlocks(s, edit.page, [...textsAt(s, edit.page), edit.text], now);
  else if (edit.kind === 'prepend') setBlocks(s, edit.page, [edit.text, ...textsAt(s, edit.page)], now);
  else if (edit.kind === 'dropFirst') setBlocks(s, edit.page, textsAt(s, edit.page).slice(1), now);
  else if (edit.kind === 'file') s.files.set(edit.id, file(edit.id));
}

/** Turns random seeds into valid edits of one side's own pages, applying them to a copy as it goes. */
function editsOf(base: RevisionSnapshot, side: Side, seeds: Array<{ op: (typeof OPS)[number]; x: number; y: number }>): Edit[] {
  const s = clone(base);
  const owner = new Map<string, Side>();
  base.root.children
    .filter((id) => id !== 'p0')
    .forEach((top, n) => {
      const deal = (id: string): void => (owner.set(id, n % 2 ? 'B' : 'A'), base.pages.get(id)!.children.forEach(deal));
      deal(top);
    });
  const moved = new Set<string>();
  const edits: Edit[] = [];
  seeds.forEach(({ op, x, y }, n) => {
    const mine = [...s.pages.keys()].filter((id) => owner.get(id) === side).sort();
    const pick = <T>(list: T[], k: number): T => list[k % list.length];
    const within = (candidate: string, page: string): boolean => candidate === page || (s.pages.get(candidate)!.parent !== null && within(s.pages.get(candidate)!.parent!, page));
    const tag = `${side}${n}`;
    let edit: Edit | undefined;
    if (op === 'shared') edit = side === 'A' ? { kind: 'append', page: 'p0', text: `p0.${tag}` } : { kind: 'prepend', page: 'p0', text: `p0.${tag}` };
    else if (op === 'file') edit = { kind: 'file', id: `f${tag}` };
    else if (op === 'insert') {
      const into = pick([null, ...mine], y);
      edit = { kind: 'insert', id: `n${tag}`, into };
      owner.set(edit.id, side);
    } else if (mine.length) {
      const page = pick(mine, x);
      if (op === 'title') edit = { kind: 'title', page, title: `title ${tag}` };
      else if (op === 'emoji') edit = { kind: 'emoji', page, emoji: `emoji-${tag}` };
      else if (op === 'delete') edit = { kind: 'delete', page };
      else if (op === 'append') edit = { kind: 'append', page, text: `${page}.${tag}` };
      else if (op === 'dropFirst' && textsAt(s, page).length) edit = { kind: 'dropFirst', page };
      else if (op === 'move' && !moved.has(page)) {
        const into = pick([null, ...mine.filter((id) => !within(id, page))], y);
        if (into !== s.pages.get(page)!.parent) edit = { kind: 'move', page, into };
        moved.add(page);
      }
    }
    if (!edit) return;
    apply(s, edit, 'side');
    edits.push(edit);
  });
  return edits;
}

function applied(base: RevisionSnapshot, edits: Edit[], now: string): RevisionSnapshot {
  const s = clone(base);
  edits.forEach((edit) => apply(s, edit, now));
  return s;
}

/** What a reader sees: order, fields, parents and block texts (not the timestamps). */
function view(s: RevisionSnapshot) {
  return {
    root: s.root.children,
    pages: [...s.pages.values()]
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .map((page) => ({ id: page.id, title: page.title, slug: page.slug, emoji: page.emoji, parent: page.parent, children: page.children, texts: textsAt(s, page.id) })),
    files: [...s.files.keys()].sort(),
  };
}

const baseArb = fc
  .tuple(fc.array(fc.nat(), { minLength: 2, maxLength: 10 }), fc.array(fc.nat({ max: 3 }), { maxLength: 10 }))
  .map(([parents, blocks]) => baseRevision(parents, blocks));
const seeds = fc.array(seed, { maxLength: 8 });

describe('mergeRevisions properties', () => {
  it('non-overlapping edit sets merge cleanly into one applied after the other', () => {
    fc.assert(
      fc.property(baseArb, seeds, seeds, (base, seedsA, seedsB) => {
        const [editsA, editsB] = [editsOf(base, 'A', seedsA), editsOf(base, 'B', seedsB)];
        const ours = applied(base, editsA, 'ours');
        const theirs = applied(base, editsB, 'theirs');
        const result = mergeRevisions(base, ours, theirs, 'merged');
        expect(result.conflicts).toEqual([]);
        const merged: RevisionSnapshot = { ...result, documents: new Map([...ours.documents, ...result.documents]) };
        expect(view(merged)).toEqual(view(applied(ours, editsB, 'theirs')));
      }),
      { numRuns: 300 },
    );
  });

  it('merging with an unchanged side gives the changed side, exactly', () => {
    fc.assert(
      fc.property(baseArb, seeds, fc.constantFrom<Side>('A', 'B'), (base, seedsX, side) => {
        const x = applied(base, editsOf(base, side, seedsX), 'x');
        const asOurs = mergeRevisions(base, x, base, 'merged');
        expect(asOurs).toEqual({ conflicts: [], root: x.root, pages: x.pages, documents: new Map(), files: x.files, changedPages: [], deletedPages: [] });

        const asTheirs = mergeRevisions(base, base, x, 'merged');
        const changed = [...x.pages.values()].filter((page) => contentHash(page) !== contentHash(base.pages.get(page.id) ?? null)).map((page) => page.id);
        const newDocuments = [...x.pages.values()].flatMap((page) => (page.document && !base.documents.has(page.document) ? [page.document] : []));
        expect(asTheirs.conflicts).toEqual([]);
        expect([asTheirs.root, asTheirs.pages, asTheirs.files]).toEqual([x.root, x.pages, x.files]);
        expect([...asTheirs.documents.keys()].sort()).toEqual([...new Set(newDocuments)].sort());
        expect(asTheirs.changedPages).toEqual(changed.sort());
        expect(asTheirs.deletedPages).toEqual([...base.pages.keys()].filter((id) => !x.pages.has(id)).sort());
      }),
      { numRuns: 300 },
    );
  });

  it('a block written by both sides at the two ends of a shared page keeps both', () => {
    const base = baseRevision([0], [1]);
    const ours = applied(base, [{ kind: 'append', page: 'p0', text: 'end' }], 'ours');
    const theirs = applied(base, [{ kind: 'prepend', page: 'p0', text: 'start' }], 'theirs');
    const result = mergeRevisions(base, ours, theirs, 'merged');
    expect(textsOf(result.documents.get(result.pages.get('p0')!.document!))).toEqual(['start', 'p0.b0', 'p0.b1', 'end']);
  });
});
