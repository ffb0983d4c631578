import { createHash } from 'node:crypto';
import { contentHash } from './content-hash';

/**
 * A persistent hash trie from keys (page or file ids) to record addresses, stored as immutable,
 * content-addressed nodes. A revision holds only the address of its root: setting one key rewrites the
 * nodes on that key's path (depth ≈ log16 of the size), and every other node is shared with the
 * revision it came from. Nodes split at LEAF_CAPACITY entries and never merge back, so a map's shape
 * can depend on its history; equality of content is decided on entries, not on root addresses.
 */
export type TrieNode = { leaf: Record<string, string> } | { kids: Record<string, string> };

export interface TrieNodeSource {
  /** the nodes with these addresses (every one must exist) */
  nodes(hashes: readonly string[]): Promise<Map<string, TrieNode>>;
}

export const LEAF_CAPACITY = 16;
export const MAX_DEPTH = 20;

export const EMPTY_TRIE: TrieNode = { leaf: {} };
export const EMPTY_TRIE_HASH = contentHash(EMPTY_TRIE);

/** The digit of `key` that chooses its branch at `depth`. */
export function nibble(key: string, depth: number): string {
  const digest = createHash('sha1').update(key).digest('hex');
  return digest[depth];
}

async function one(source: TrieNodeSource, hash: string): Promise<TrieNode> {
  if (hash === EMPTY_TRIE_HASH) return EMPTY_TRIE;
  const node = (await source.nodes([hash])).get(hash);
  if (!node) throw new Error(`content record ${hash} is missing`);
  return node;
}

/** The address stored under `key`, or undefined. */
export async function trieGet(source: TrieNodeSource, root: string, key: string): Promise<string | undefined> {
  let node = await one(source, root);
  for (let depth = 0; depth < MAX_DEPTH; depth += 1) {
    if ('leaf' in node) return node.leaf[key];
    const next = node.kids[nibble(key, depth)];
    if (!next) return undefined;
    node = await one(source, next);
  }
  return undefined;
}

/** Every entry of the map, loading one level of nodes per round trip. */
export async function trieEntries(source: TrieNodeSource, root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let level = [root];
  while (level.length) {
    const wanted = level.filter((h) => h !== EMPTY_TRIE_HASH);
    const loaded = wanted.length ? await source.nodes(wanted) : new Map<string, TrieNode>();
    const next: string[] = [];
    for (const hash of wanted) {
      const node = loaded.get(hash);
      if (!node) throw new Error(`content record ${hash} is missing`);
      if ('leaf' in node) for (const [k, v] of Object.entries(node.leaf)) out.set(k, v);
      else next.push(...Object.values(node.kids));
    }
    level = next;
  }
  return out;
}

export interface TrieWrite {
  root: string;
  /** the nodes this write created, by address (to store before the root is published) */
  created: Map<string, TrieNode>;
}

/** Applies `updates` (an address, or null to remove the key) and answers the new root and its new nodes. */
export async function trieSet(source: TrieNodeSource, root: string, updates: ReadonlyMap<string, string | null>): Promise<TrieWrite> {
  const created = new Map<string, TrieNode>();
  const store = (node: TrieNode): string => {
    const hash = contentHash(node);
    if (hash !== EMPTY_TRIE_HASH) created.set(hash, node);
    return hash;
  };

  const build = (entries: Array<[string, string]>, depth: number): string => {
    if (entries.length <= LEAF_CAPACITY || depth >= MAX_DEPTH) return store({ leaf: Object.fromEntries(entries) });
    const groups = new Map<string, Array<[string, string]>>();
    for (const entry of entries) {
      const n = nibble(entry[0], depth);
      groups.set(n, [...(groups.get(n) ?? []), entry]);
    }
    const kids: Record<string, string> = {};
    for (const [n, group] of [...groups].sort(([a], [b]) => a.localeCompare(b))) kids[n] = build(group, depth + 1);
    return store({ kids });
  };

  const apply = async (hash: string | undefined, changes: Array<[string, string | null]>, depth: number): Promise<string> => {
    const node = hash ? await one(source, hash) : EMPTY_TRIE;
    if ('leaf' in node) {
      const leaf = { ...node.leaf };
      for (const [k, v] of changes) {
        if (v === null) delete leaf[k];
        else leaf[k] = v;
      }
      return build(
        Object.entries(leaf).sort(([a], [b]) => a.localeCompare(b)),
        depth,
      );
    }
    const byKid = new Map<string, Array<[string, string | null]>>();
    for (const change of changes) {
      const n = nibble(change[0], depth);
      byKid.set(n, [...(byKid.get(n) ?? []), change]);
    }
    const kids = { ...node.kids };
    for (const [n, group] of byKid) {
      const next = await apply(kids[n], group, depth + 1);
      if (next === EMPTY_TRIE_HASH) delete kids[n];
      else kids[n] = next;
    }
    if (!Object.keys(kids).length) return EMPTY_TRIE_HASH;
    return store({ kids: Object.fromEntries(Object.entries(kids).sort(([a], [b]) => a.localeCompare(b))) });
  };

  if (!updates.size) return { root, created };
  const next = await apply(root, [...updates], 0);
  return { root: next, created };
}
