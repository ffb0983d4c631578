import fc from 'fast-check';
import { EMPTY_TRIE_HASH, TrieNode, TrieNodeSource, trieSet } from './hash-trie';
import { trieDiff, trieGetMany } from './trie-walk';

/** An in-memory node store that counts the nodes it was asked for. */
function store() {
  const nodes = new Map<string, TrieNode>();
  let asked = 0;
  const source: TrieNodeSource = {
    nodes: async (hashes) => ((asked += hashes.length), new Map(hashes.map((h) => [h, nodes.get(h)!]))),
  };
  const write = async (root: string, updates: Map<string, string | null>) => {
    const w = await trieSet(source, root, updates);
    w.created.forEach((node, hash) => nodes.set(hash, node));
    return w.root;
  };
  return { source, write, asked: () => asked };
}

const entries = (keys: number[], tag: string) => new Map(keys.map((k) => [`k${k}`, `${tag}${k}`] as [string, string | null]));

describe('trie walks', () => {
  it('trieDiff answers the keys whose addresses differ, whatever shapes history gave the two maps', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.nat({ max: 400 }), { maxLength: 200, size: 'max' }),
        fc.uniqueArray(fc.nat({ max: 400 }), { maxLength: 200, size: 'max' }),
        fc.uniqueArray(fc.nat({ max: 400 }), { maxLength: 60, size: 'max' }),
        async (first, second, removed) => {
          const { source, write } = store();
          // `a` grew large and shrank again (its nodes stay split); `b` was written in one go
          let a = await write(EMPTY_TRIE_HASH, entries(first, 'v'));
          a = await write(a, new Map(removed.map((k) => [`k${k}`, null])));
          const b = await write(EMPTY_TRIE_HASH, entries(second, second.length % 2 ? 'v' : 'w'));
          const c = await write(EMPTY_TRIE_HASH, entries(second.slice(0, 10), 'v'));
          const all = (n: number[]) => n.map((k) => `k${k}`);
          const ma = await trieGetMany(source, a, all(first));
          expect([...ma.keys()].sort()).toEqual(all(first.filter((k) => !removed.includes(k))).sort());
          // a leaf against a branch at the top (c is small), and branches against branches
          const maps: Array<[string, Map<string, string>]> = [
            [a, ma],
            [b, await trieGetMany(source, b, all(second))],
            [c, await trieGetMany(source, c, all(second))],
          ];
          for (const [x, mx] of maps) {
            for (const [y, my] of maps) {
              const expected = new Map<string, { before?: string; after?: string }>();
              for (const key of [...new Set([...mx.keys(), ...my.keys()])].sort()) {
                if (mx.get(key) !== my.get(key)) expected.set(key, { ...(mx.has(key) ? { before: mx.get(key) } : {}), ...(my.has(key) ? { after: my.get(key) } : {}) });
              }
              const diff = await trieDiff(source, x, y);
              expect(new Map([...diff].sort(([k1], [k2]) => (k1 < k2 ? -1 : 1)))).toEqual(expected);
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('one changed key in a map of 5,000 reads only the nodes on its path', async () => {
    const { source, write, asked } = store();
    const keys = Array.from({ length: 5000 }, (_, i) => i);
    const before = await write(EMPTY_TRIE_HASH, entries(keys, 'v'));
    const after = await write(before, new Map([['k1234', 'changed']]));
    const start = asked();
    expect(await trieDiff(source, before, after)).toEqual(new Map([['k1234', { before: 'v1234', after: 'changed' }]]));
    // two nodes per level, about four levels
    expect(asked() - start).toBeLessThanOrEqual(10);
  });
});
