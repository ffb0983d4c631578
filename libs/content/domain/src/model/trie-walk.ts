import { EMPTY_TRIE, EMPTY_TRIE_HASH, MAX_DEPTH, nibble, TrieNode, TrieNodeSource, trieEntries } from './hash-trie';

/** How one key's address differs between two maps: absent on a side = not in that map. */
export interface TrieChange {
  before?: string;
  after?: string;
}

async function loadLevel(source: TrieNodeSource, hashes: Iterable<string>): Promise<(hash: string) => TrieNode> {
  const wanted = [...new Set(hashes)].filter((h) => h !== EMPTY_TRIE_HASH);
  const loaded = wanted.length ? await source.nodes(wanted) : new Map<string, TrieNode>();
  return (hash) => {
    if (hash === EMPTY_TRIE_HASH) return EMPTY_TRIE;
    const node = loaded.get(hash);
    if (!node) throw new Error(`content record ${hash} is missing`);
    return node;
  };
}

/** The addresses stored under `keys` (absent keys are left out), one level of nodes per round trip. */
export async function trieGetMany(source: TrieNodeSource, root: string, keys: Iterable<string>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let level: Array<[string, string]> = [...new Set(keys)].map((key) => [key, root]);
  for (let depth = 0; level.length && depth < MAX_DEPTH; depth += 1) {
    const node = await loadLevel(
      source,
      level.map(([, hash]) => hash),
    );
    const next: Array<[string, string]> = [];
    for (const [key, hash] of level) {
      const at = node(hash);
      if ('leaf' in at) {
        if (at.leaf[key] !== undefined) out.set(key, at.leaf[key]);
      } else {
        const kid = at.kids[nibble(key, depth)];
        if (kid) next.push([key, kid]);
      }
    }
    level = next;
  }
  return out;
}

function compareEntries(before: Map<string, string>, after: Map<string, string>, out: Map<string, TrieChange>): void {
  for (const [key, hash] of before) if (after.get(key) !== hash) out.set(key, { before: hash, ...(after.has(key) ? { after: after.get(key) } : {}) });
  for (const [key, hash] of after) if (!before.has(key)) out.set(key, { after: hash });
}

/**
 * The keys whose addresses differ between two maps. Subtrees with the same address are equal and
 * skipped, so the cost follows the size of the difference, not of the maps. Where the two shapes
 * differ (a leaf against a branch: shapes depend on history), the two subtrees are compared entry by
 * entry.
 */
export async function trieDiff(source: TrieNodeSource, before: string, after: string): Promise<Map<string, TrieChange>> {
  const out = new Map<string, TrieChange>();
  const uneven: Array<[string, string]> = [];
  let level: Array<[string, string]> = before === after ? [] : [[before, after]];
  while (level.length) {
    const node = await loadLevel(source, level.flat());
    const next: Array<[string, string]> = [];
    for (const [a, b] of level) {
      const [na, nb] = [node(a), node(b)];
      if ('kids' in na && 'kids' in nb) {
        for (const n of new Set([...Object.keys(na.kids), ...Object.keys(nb.kids)])) {
          const [ka, kb] = [na.kids[n] ?? EMPTY_TRIE_HASH, nb.kids[n] ?? EMPTY_TRIE_HASH];
          if (ka !== kb) next.push([ka, kb]);
        }
      } else if ('leaf' in na && 'leaf' in nb) {
        compareEntries(new Map(Object.entries(na.leaf)), new Map(Object.entries(nb.leaf)), out);
      } else {
        uneven.push([a, b]);
      }
    }
    level = next;
  }
  const compared = await Promise.all(uneven.map(([a, b]) => Promise.all([trieEntries(source, a), trieEntries(source, b)])));
  for (const [a, b] of compared) compareEntries(a, b, out);
  return out;
}
