import fc from 'fast-check';
import { commonSubsequence } from './sequence-diff';
import { changedRegions, mergeSequences } from './sequence-diff3';

const chars = (s: string) => s.split('');
const merge = (base: string, ours: string, theirs: string) => {
  const result = mergeSequences(chars(base), chars(ours), chars(theirs), String);
  return { text: result.items.map((i) => i.item).join(''), conflicts: result.conflicts.map((c) => `${c.base.join('')}:${c.ours.join('')}/${c.theirs.join('')}`) };
};

/** The length of a longest common subsequence, by the quadratic table: the reference Myers is checked against. */
function lcsLength(a: string[], b: string[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i += 1) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j += 1) {
      const above = row[j];
      row[j] = a[i - 1] === b[j - 1] ? diagonal + 1 : Math.max(row[j], row[j - 1]);
      diagonal = above;
    }
  }
  return row[b.length];
}

describe('commonSubsequence (Myers)', () => {
  it('matches a longest common subsequence, increasing in both sequences', () => {
    const letters = fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 14 });
    fc.assert(
      fc.property(letters, letters, (a, b) => {
        const pairs = commonSubsequence(a, b);
        expect(pairs.length).toBe(lcsLength(a, b));
        pairs.forEach(([i, j], n) => {
          expect(a[i]).toBe(b[j]);
          if (n) expect(i > pairs[n - 1][0] && j > pairs[n - 1][1]).toBe(true);
        });
      }),
      { numRuns: 500 },
    );
  });

  it('handles empty and identical sequences', () => {
    expect(commonSubsequence([], ['a'])).toEqual([]);
    expect(commonSubsequence(['a', 'b'], ['a', 'b'])).toEqual([
      [0, 0],
      [1, 1],
    ]);
  });

  it('gives up on the middle beyond the edit limit (everything there counts as replaced)', () => {
    expect(commonSubsequence(chars('axyzb'), chars('azyxb'), 1)).toEqual([
      [0, 0],
      [4, 4],
    ]);
  });
});

describe('changedRegions', () => {
  it('describes a side as replacements of base stretches', () => {
    expect(changedRegions(chars('abcd'), chars('aXcdY'), String)).toEqual([
      { start: 1, end: 2, items: ['X'] },
      { start: 4, end: 4, items: ['Y'] },
    ]);
  });
});

describe('mergeSequences (diff3)', () => {
  it.each([
    ['changes to different items both apply', 'abcde', 'aBcde', 'abcdE', 'aBcdE', []],
    ['changes to neighbouring items both apply', 'abcde', 'aBcde', 'abCde', 'aBCde', []],
    ['insertions at both ends both apply', 'abc', 'Xabc', 'abcY', 'XabcY', []],
    ['an identical change applies once', 'abc', 'aXc', 'aXc', 'aXc', []],
    ['a deletion and an edit of one item conflict', 'abc', 'ac', 'aXc', 'ac', ['b:/X']],
    ['different edits of one item conflict', 'abc', 'aXc', 'aYc', 'aXc', ['b:X/Y']],
    ['insertions at one place conflict', 'ab', 'aXb', 'aYb', 'aXb', [':X/Y']],
    ['an insertion inside a stretch the other side replaced conflicts', 'abcd', 'aXYd', 'abZcd', 'aXYd', ['bc:XY/bZc']],
    ['an insertion next to an edited item applies', 'abc', 'aBc', 'abZc', 'aBZc', []],
    ['deletions on both sides apply', 'abcde', 'acde', 'abce', 'ace', []],
    ['one side unchanged takes the other', 'abc', 'abc', 'xyz', 'xyz', []],
  ])('%s', (_name, base, ours, theirs, text, conflicts) => {
    expect(merge(base, ours, theirs)).toEqual({ text, conflicts });
  });

  it('a side merged with the base, or with itself, is that side', () => {
    const text = fc.array(fc.constantFrom('a', 'b', 'c'), { maxLength: 10 });
    fc.assert(
      fc.property(text, text, (base, side) => {
        expect(mergeSequences(base, side, base, String).items.map((i) => i.item)).toEqual(side);
        expect(mergeSequences(base, base, side, String).items.map((i) => i.item)).toEqual(side);
        expect(mergeSequences(base, side, side, String).items.map((i) => i.item)).toEqual(side);
      }),
      { numRuns: 300 },
    );
  });
});
