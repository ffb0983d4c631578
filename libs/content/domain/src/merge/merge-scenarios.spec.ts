import { expectConsistent, file, outline, p, rev, T0, textsOf } from './merge-fixtures';
import { mergeRevisions } from './merge-revisions';
import { MergeConflict, MergeResult, RevisionSnapshot } from './merge-types';

const NOW = '2024-06-01T12:00:00.000Z';

interface Scenario {
  name: string;
  base: RevisionSnapshot;
  ours: RevisionSnapshot;
  theirs: RevisionSnapshot;
  /** clean: the merged tree as `outline` writes it */
  outline?: string[];
  /** not clean: the conflicts, without their reasons */
  conflicts?: Array<Omit<MergeConflict, 'reason'>>;
  files?: string[];
  deleted?: string[];
  check?: (result: MergeResult, s: Scenario) => void;
}

const twoPages = rev([p('a', { blocks: ['a1'] }), p('b', { blocks: ['b1'] })]);
const xyz = rev([p('a', { blocks: ['x', 'y', 'z'] })]);
const abc = rev([p('a'), p('b'), p('c')]);
const nested = rev([p('a', {}, p('b', {}, p('c', { blocks: ['c1'] }))), p('d')]);

const scenarios: Scenario[] = [
  {
    name: 'different pages: both edits survive',
    base: twoPages,
    ours: rev([p('a', { title: 'A2', blocks: ['a1'] }), p('b', { blocks: ['b1'] })]),
    theirs: rev([p('a', { blocks: ['a1'] }), p('b', { blocks: ['b1', 'b2'] })]),
    outline: ['a "A2": a1', 'b "B": b1 | b2'],
    check: (r) => expect(r.changedPages).toEqual(['b']),
  },
  {
    name: 'same page, different blocks: merged block by block, written now',
    base: xyz,
    ours: rev([p('a', { blocks: ['x*', 'y', 'z'] })]),
    theirs: rev([p('a', { blocks: ['x', 'y', 'z*'] })]),
    outline: ['a "A": x* | y | z*'],
    check: (r) => {
      expect(r.pages.get('a')!.updatedAt).toBe(NOW);
      expect([...r.documents.keys()]).toEqual([r.pages.get('a')!.document]);
      expect(r.changedPages).toEqual(['a']);
    },
  },
  {
    name: 'same page, neighbouring blocks: both edits survive',
    base: xyz,
    ours: rev([p('a', { blocks: ['x*', 'y', 'z'] })]),
    theirs: rev([p('a', { blocks: ['x', 'y*', 'z'] })]),
    outline: ['a "A": x* | y* | z'],
  },
  {
    name: 'same page, same block edited differently: conflict',
    base: xyz,
    ours: rev([p('a', { blocks: ['x', 'y1', 'z'] })]),
    theirs: rev([p('a', { blocks: ['x', 'y2', 'z'] })]),
    conflicts: [{ kind: 'document', page: 'a' }],
  },
  {
    name: 'same block edited identically on both sides: clean, once',
    base: xyz,
    ours: rev([p('a', { blocks: ['x', 'y!', 'z'] })]),
    theirs: rev([p('a', { blocks: ['x', 'y!', 'z'] })]),
    outline: ['a "A": x | y! | z'],
    check: (r) => expect(r.documents.size).toBe(0),
  },
  {
    name: 'block inserted at the start by one side, at the end by the other',
    base: xyz,
    ours: rev([p('a', { blocks: ['first', 'x', 'y', 'z'] })]),
    theirs: rev([p('a', { blocks: ['x', 'y', 'z', 'last'] })]),
    outline: ['a "A": first | x | y | z | last'],
  },
  {
    name: 'block deleted by one side, edited by the other: conflict',
    base: xyz,
    ours: rev([p('a', { blocks: ['x', 'z'] })]),
    theirs: rev([p('a', { blocks: ['x', 'y edited', 'z'] })]),
    conflicts: [{ kind: 'document', page: 'a' }],
  },
  {
    name: 'different blocks deleted on each side',
    base: xyz,
    ours: rev([p('a', { blocks: ['y', 'z'] })]),
    theirs: rev([p('a', { blocks: ['x', 'y'] })]),
    outline: ['a "A": y'],
  },
  {
    name: 'title edited differently on both sides: conflict',
    base: twoPages,
    ours: rev([p('a', { title: 'Ours', blocks: ['a1'] }), p('b', { blocks: ['b1'] })]),
    theirs: rev([p('a', { title: 'Theirs', blocks: ['a1'] }), p('b', { blocks: ['b1'] })]),
    conflicts: [{ kind: 'page', page: 'a', field: 'title' }],
  },
  {
    name: 'title edited identically on both sides: clean',
    base: twoPages,
    ours: rev([p('a', { title: 'Same', blocks: ['a1'] }), p('b', { blocks: ['b1'] })]),
    theirs: rev([p('a', { title: 'Same', blocks: ['a1'] }), p('b', { blocks: ['b1'] })]),
    outline: ['a "Same": a1', 'b "B": b1'],
  },
  {
    name: 'title on one side, emoji on the other: both, written now',
    base: twoPages,
    ours: rev([p('a', { title: 'New', blocks: ['a1'] }), p('b', { blocks: ['b1'] })]),
    theirs: rev([p('a', { emoji: '1f680', blocks: ['a1'] }), p('b', { blocks: ['b1'] })]),
    outline: ['a "New" 1f680: a1', 'b "B": b1'],
    check: (r) => expect([r.pages.get('a')!.updatedAt, r.pages.get('b')!.updatedAt]).toEqual([NOW, T0]),
  },
  {
    name: 'rename vs rename (title and slug): conflicts on both fields',
    base: twoPages,
    ours: rev([p('a', { title: 'Guide', slug: 'guide', blocks: ['a1'] }), p('b', { blocks: ['b1'] })]),
    theirs: rev([p('a', { title: 'Manual', slug: 'manual', blocks: ['a1'] }), p('b', { blocks: ['b1'] })]),
    conflicts: [
      { kind: 'page', page: 'a', field: 'slug' },
      { kind: 'page', page: 'a', field: 'title' },
    ],
  },
  {
    name: 'move vs edit: both apply',
    base: rev([p('a'), p('b'), p('c', { blocks: ['c1'] })]),
    ours: rev([p('a', {}, p('c', { blocks: ['c1'] })), p('b')]),
    theirs: rev([p('a'), p('b'), p('c', { title: 'C2', blocks: ['c1', 'c2'] })]),
    outline: ['a "A"', '  c "C2": c1 | c2', 'b "B"'],
  },
  {
    name: 'move vs move to different parents: conflict',
    base: abc,
    ours: rev([p('a', {}, p('c')), p('b')]),
    theirs: rev([p('a'), p('b', {}, p('c'))]),
    conflicts: [{ kind: 'tree', page: 'c', field: 'parent' }],
  },
  {
    name: 'move vs move to the same parent: clean',
    base: abc,
    ours: rev([p('a', {}, p('c')), p('b')]),
    theirs: rev([p('a', {}, p('c')), p('b')]),
    outline: ['a "A"', '  c "C"', 'b "B"'],
  },
  {
    name: 'cycle made only by combining two moves (a into b, b into a): conflict',
    base: abc,
    ours: rev([p('b', {}, p('a')), p('c')]),
    theirs: rev([p('a', {}, p('b')), p('c')]),
    conflicts: [{ kind: 'tree', page: 'a', field: 'parent' }],
  },
  {
    name: 'delete vs edit: conflict',
    base: twoPages,
    ours: rev([p('a', { blocks: ['a1'] })]),
    theirs: rev([p('a', { blocks: ['a1'] }), p('b', { title: 'B2', blocks: ['b1'] })]),
    conflicts: [{ kind: 'page', page: 'b' }],
  },
  {
    name: 'edit vs delete: conflict',
    base: twoPages,
    ours: rev([p('a', { blocks: ['a1'] }), p('b', { blocks: ['b1', 'b2'] })]),
    theirs: rev([p('a', { blocks: ['a1'] })]),
    conflicts: [{ kind: 'page', page: 'b' }],
  },
  {
    name: 'delete vs untouched: deleted with its subtree',
    base: nested,
    ours: rev([p('a', {}, p('b', {}, p('c', { blocks: ['c1'] }))), p('d', { title: 'D2' })]),
    theirs: rev([p('d')]),
    outline: ['d "D2"'],
    deleted: ['a', 'b', 'c'],
  },
  {
    name: 'delete vs delete: clean',
    base: nested,
    ours: rev([p('d')]),
    theirs: rev([p('d')]),
    outline: ['d "D"'],
    deleted: [],
  },
  {
    name: 'a parent deleted on one side, its child on the other: clean',
    base: nested,
    ours: rev([p('a', {}, p('b')), p('d')]),
    theirs: rev([p('d')]),
    outline: ['d "D"'],
    deleted: ['a', 'b'],
  },
  {
    name: 'a parent deleted on one side, a child inserted under it on the other: conflict',
    base: nested,
    ours: rev([p('d')]),
    theirs: rev([p('a', {}, p('b', {}, p('c', { blocks: ['c1'] })), p('n')), p('d')]),
    conflicts: [{ kind: 'page', page: 'a' }],
  },
  {
    name: 'a page moved out of a parent the other side deletes: conflict on the moved page',
    base: nested,
    ours: rev([p('a'), p('d'), p('b', {}, p('c', { blocks: ['c1'] }))]),
    theirs: rev([p('d')]),
    conflicts: [{ kind: 'page', page: 'b' }],
  },
  {
    name: 'subtree moved on one side while a page in it is edited on the other',
    base: nested,
    ours: rev([p('a'), p('d', {}, p('b', {}, p('c', { blocks: ['c1'] })))]),
    theirs: rev([p('a', {}, p('b', {}, p('c', { title: 'C2', blocks: ['c1', 'c2'] }))), p('d')]),
    outline: ['a "A"', 'd "D"', '  b "B"', '    c "C2": c1 | c2'],
  },
  {
    name: 'insert on both sides under the same parent: both kept, ours first',
    base: rev([p('a', {}, p('x'))]),
    ours: rev([p('a', {}, p('x'), p('o1'))]),
    theirs: rev([p('a', {}, p('x'), p('t1'))]),
    outline: ['a "A"', '  x "X"', '  o1 "O1"', '  t1 "T1"'],
    check: (r) => expect(r.changedPages).toEqual(['a', 't1']),
  },
  {
    name: 'insert at the top on both sides, at the start and at the end',
    base: rev([p('a')]),
    ours: rev([p('o'), p('a')]),
    theirs: rev([p('a'), p('t')]),
    outline: ['o "O"', 'a "A"', 't "T"'],
  },
  {
    name: 'inserts with the same slug under one parent: conflict',
    base: rev([p('a')]),
    ours: rev([p('a', {}, p('o1', { slug: 'intro' }))]),
    theirs: rev([p('a', {}, p('t1', { slug: 'intro' }))]),
    conflicts: [{ kind: 'tree', page: 't1', field: 'slug' }],
  },
  {
    name: 'the same new id with different content on both sides: conflict',
    base: rev([p('a')]),
    ours: rev([p('a'), p('n', { title: 'Ours' })]),
    theirs: rev([p('a'), p('n', { title: 'Theirs' })]),
    conflicts: [{ kind: 'page', page: 'n' }],
  },
  {
    name: 'reorder on one side, insert on the other',
    base: abc,
    ours: rev([p('c'), p('a'), p('b')]),
    theirs: rev([p('a'), p('b'), p('c'), p('d')]),
    outline: ['c "C"', 'a "A"', 'b "B"', 'd "D"'],
  },
  {
    name: 'different reorders of the same pages: ours order, no conflict',
    base: abc,
    ours: rev([p('b'), p('a'), p('c')]),
    theirs: rev([p('a'), p('c'), p('b')]),
    outline: ['b "B"', 'a "A"', 'c "C"'],
  },
  {
    name: 'each side moves a different page to the end (both reorder the same pages): ours order',
    base: abc,
    ours: rev([p('b'), p('c'), p('a')]),
    theirs: rev([p('a'), p('c'), p('b')]),
    outline: ['b "B"', 'c "C"', 'a "A"'],
  },
  {
    name: 'a reorder on one side, a page moved out of the list on the other',
    base: abc,
    ours: rev([p('c'), p('b'), p('a')]),
    theirs: rev([p('a', {}, p('b')), p('c')]),
    outline: ['c "C"', 'a "A"', '  b "B"'],
  },
  {
    name: 'only ours changed: ours as it is',
    base: twoPages,
    ours: rev([p('b', { blocks: ['b1', 'b2'] }), p('a', { title: 'A2', blocks: ['a1'] })]),
    theirs: twoPages,
    outline: ['b "B": b1 | b2', 'a "A2": a1'],
    check: (r) => expect([r.changedPages, r.documents.size]).toEqual([[], 0]),
  },
  {
    name: 'files inserted on both sides: all kept',
    base: rev([p('a')], [file('f0')]),
    ours: rev([p('a')], [file('f0'), file('f1')]),
    theirs: rev([p('a')], [file('f0'), file('f2')]),
    outline: ['a "A"'],
    files: ['f0', 'f1', 'f2'],
  },
  {
    name: 'the same file id with different records: conflict',
    base: rev([p('a')]),
    ours: rev([p('a')], [file('f1', 'logo.png')]),
    theirs: rev([p('a')], [file('f1', 'photo.png')]),
    conflicts: [{ kind: 'file', file: 'f1' }],
  },
];

describe('mergeRevisions scenarios', () => {
  it('has at least 24 scenarios', () => expect(scenarios.length).toBeGreaterThanOrEqual(24));

  it.each(scenarios.map((s) => [s.name, s] as const))('%s', (_name, s) => {
    const result = mergeRevisions(s.base, s.ours, s.theirs, NOW);
    const conflicts = result.conflicts.map(({ reason: _reason, ...rest }) => rest);
    expect(conflicts).toEqual(s.conflicts ?? []);
    if (s.outline) {
      expect(outline(result, s.ours)).toEqual(s.outline);
      expectConsistent(result, s.ours);
    }
    if (s.files) expect([...result.files.keys()]).toEqual(s.files);
    if (s.deleted) expect(result.deletedPages).toEqual(s.deleted);
    s.check?.(result, s);
    // the same inputs give the same answer
    expect(mergeRevisions(s.base, s.ours, s.theirs, NOW)).toEqual(result);
  });

  it('conflicts say why', () => {
    const result = mergeRevisions(twoPages, rev([p('a', { blocks: ['a1'] })]), rev([p('a', { blocks: ['a1'] }), p('b', { title: 'B2', blocks: ['b1'] })]), NOW);
    expect(result.conflicts).toEqual([{ kind: 'page', page: 'b', reason: 'delete vs edit: deleted by ours, edited by theirs' }]);
  });

  it('a block-merged document is new, with its references recomputed', () => {
    const result = mergeRevisions(xyz, rev([p('a', { blocks: ['x*', 'y', 'z'] })]), rev([p('a', { blocks: ['x', 'y', 'z*'] })]), NOW);
    const page = result.pages.get('a')!;
    expect(textsOf(result.documents.get(page.document!))).toEqual(['x*', 'y', 'z*']);
    expect(page.refs).toEqual([]);
  });
});
