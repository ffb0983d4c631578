import { createHash } from 'node:crypto';
import type { Document, DocumentFragment, DocumentNode } from './types';

type Keyed = DocumentNode | DocumentFragment;

/**
 * Gives every block, inline, text and fragment a `key` derived from its own content (not from a global counter),
 * so converting the same Markdown twice yields byte-identical documents and an edit elsewhere in the page leaves
 * the keys of untouched blocks unchanged. Duplicate content gets the next free key in document order.
 */
export function assignKeys(document: Document): Document {
  const taken = new Set<string>();
  const visit = (node: Keyed) => {
    const base = JSON.stringify(node);
    let key = digest(base);
    for (let n = 2; taken.has(key); n++) key = digest(`${base}#${n}`);
    taken.add(key);
    node.key = key;
    if ('nodes' in node && node.nodes) node.nodes.forEach(visit);
    if ('fragments' in node && node.fragments) node.fragments.forEach(visit);
  };
  document.nodes.forEach(visit);
  return document;
}

/** Strips keys, e.g. to compare two documents by content only. */
export function withoutKeys<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (k, v) => (k === 'key' ? undefined : v)));
}

function digest(value: string): string {
  return createHash('sha1').update(value).digest('base64url').slice(0, 10);
}
