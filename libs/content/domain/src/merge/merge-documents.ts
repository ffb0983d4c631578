import { ContentRef, Document, referencesOf } from '@bindery/shared/markdown';
import { canonicalJson, contentHash } from '../model/content-hash';
import { PageNode } from '../model/page-node';
import { mergeSequences } from './sequence-diff3';
import { threeWay } from './three-way';

/** A page's document as the page holds it: the address and the references extracted from it. */
export interface PageDocument {
  document?: string;
  refs?: ContentRef[];
}

export interface DocumentMerge extends PageDocument {
  /** a document the merge wrote (block-merged), to be stored */
  created?: Document;
  /** why the two documents could not be merged */
  conflict?: string;
}

const EMPTY: Document = { object: 'document', data: {}, nodes: [] };

const documentOf = (page: PageNode | undefined): PageDocument => (page?.document === undefined ? {} : { document: page.document, refs: page.refs });

/**
 * Three-way merge of one page's document. When only one side changed it, that side's document (and
 * references) stand as they are; when both did, the top-level blocks are merged with diff3, each block
 * known by its canonical JSON (not its `key`, which editors regenerate and which two sides may share
 * for different content).
 */
export function mergePageDocument(base: PageNode | undefined, ours: PageNode, theirs: PageNode, load: (hash: string) => Document): DocumentMerge {
  const [b, o, t] = [documentOf(base), documentOf(ours), documentOf(theirs)];
  if (o.document === t.document || t.document === b.document) return o;
  if (o.document === b.document) return t;

  const [baseDoc, oursDoc, theirsDoc] = [b, o, t].map((side) => (side.document === undefined ? EMPTY : load(side.document)));
  const data = threeWay(baseDoc.data, oursDoc.data, theirsDoc.data);
  if (data.conflict) return { ...o, conflict: 'both sides changed the document settings differently' };
  const blocks = mergeSequences(baseDoc.nodes, oursDoc.nodes, theirsDoc.nodes, canonicalJson);
  if (blocks.conflicts.length) {
    const where = blocks.conflicts.map((c) => (c.end - c.start <= 1 ? `at block ${c.start + 1}` : `blocks ${c.start + 1}–${c.end}`)).join(', ');
    return { ...o, conflict: `both sides changed the same blocks differently (${where} of the base)` };
  }
  const merged: Document = { object: 'document', data: data.value, nodes: blocks.items.map((i) => i.item) };
  // an empty document is no document, as when a change writes one (apply-changes)
  if (!merged.nodes.length) return {};
  return { document: contentHash(merged), refs: distinctRefs(referencesOf(merged).map((r) => r.ref)), created: merged };
}

function distinctRefs(refs: ContentRef[]): ContentRef[] {
  const seen = new Map<string, ContentRef>();
  for (const ref of refs) seen.set(JSON.stringify(ref), ref);
  return [...seen.values()];
}
