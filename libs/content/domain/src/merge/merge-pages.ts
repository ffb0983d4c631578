import type { Document } from '@bindery/shared/markdown';
import { canonicalJson } from '../model/content-hash';
import { PageNode } from '../model/page-node';
import { mergePageDocument } from './merge-documents';
import { MergeConflict } from './merge-types';
import { same, threeWay } from './three-way';

export interface PagesMerge {
  /** the merged pages, children not merged yet (ours', or the only side's) */
  pages: Map<string, PageNode>;
  conflicts: MergeConflict[];
  /** documents the block merge wrote */
  created: Map<string, Document>;
}

/** Fields with rules of their own; every other field of a page is merged on its own, three-way. */
const SPECIAL = new Set(['id', 'parent', 'children', 'document', 'refs', 'createdAt', 'updatedAt']);

const contents = new WeakMap<PageNode, string>();

/** A page's content: everything but when it was last written (remembered per page object: page versions are immutable). */
export function contentOf(page: PageNode): string {
  let content = contents.get(page);
  if (content === undefined) contents.set(page, (content = canonicalJson({ ...page, updatedAt: undefined })));
  return content;
}

/**
 * Whether a page changed since the base in a way a deletion on the other side would lose. Children
 * removed are not such a change: each removed child is judged as a page of its own (deleted, or moved
 * and therefore edited).
 */
function editedSince(base: PageNode, page: PageNode): boolean {
  const kept = base.children.filter((id) => page.children.includes(id));
  return contentOf({ ...page, children: [] }) !== contentOf({ ...base, children: [] }) || !same(page.children, kept);
}

/** Existence, fields, parent and document of every page, three-way; children order is merge-tree's. */
export function mergePages(base: Map<string, PageNode>, ours: Map<string, PageNode>, theirs: Map<string, PageNode>, load: (hash: string) => Document): PagesMerge {
  const pages = new Map<string, PageNode>();
  const conflicts: MergeConflict[] = [];
  const created = new Map<string, Document>();
  const ids = [...new Set([...base.keys(), ...ours.keys(), ...theirs.keys()])].sort();

  for (const id of ids) {
    const [b, o, t] = [base.get(id), ours.get(id), theirs.get(id)];
    if (!o && !t) continue;
    if (!b) {
      // ids are generated per side, so the same new id twice is only fine when it is the same page
      if (o && t && contentOf({ ...o, createdAt: '' }) !== contentOf({ ...t, createdAt: '' }))
        conflicts.push({ kind: 'page', page: id, reason: 'inserted on both sides with different content' });
      pages.set(id, (o ?? t)!);
      continue;
    }
    if (!o || !t) {
      const kept = (o ?? t)!;
      if (!editedSince(b, kept)) continue;
      const [deleter, editor] = o ? ['theirs', 'ours'] : ['ours', 'theirs'];
      conflicts.push({ kind: 'page', page: id, reason: `delete vs edit: deleted by ${deleter}, edited by ${editor}` });
      // keep the edited page, so the best-effort result loses nothing and leaves no orphan
      pages.set(id, kept);
      continue;
    }
    // most pages are untouched on one side: that decides every field at once (the three-way rule, whole)
    const [cb, co, ct] = [contentOf(b), contentOf(o), contentOf(t)];
    if (co === ct || ct === cb) pages.set(id, o);
    else if (co === cb) pages.set(id, t);
    else pages.set(id, mergeOne(b, o, t, load, conflicts, created));
  }
  return { pages, conflicts, created };
}

function mergeOne(b: PageNode, o: PageNode, t: PageNode, load: (hash: string) => Document, conflicts: MergeConflict[], created: Map<string, Document>): PageNode {
  const merged: Record<string, unknown> = { id: o.id, createdAt: o.createdAt };
  const fields = [...new Set([...Object.keys(b), ...Object.keys(o), ...Object.keys(t)])].filter((k) => !SPECIAL.has(k)).sort();
  const record = (page: PageNode) => page as unknown as Record<string, unknown>;
  for (const field of fields) {
    const pick = threeWay(record(b)[field], record(o)[field], record(t)[field]);
    if (pick.conflict) conflicts.push({ kind: 'page', page: o.id, field, reason: `${field} changed differently on both sides` });
    if (pick.value !== undefined) merged[field] = pick.value;
  }

  const parent = threeWay(b.parent, o.parent, t.parent);
  if (parent.conflict) conflicts.push({ kind: 'tree', page: o.id, field: 'parent', reason: 'moved to different parents on both sides' });
  merged.parent = parent.value;
  merged.children = o.children;

  const document = mergePageDocument(b, o, t, load);
  if (document.conflict) conflicts.push({ kind: 'document', page: o.id, reason: document.conflict });
  if (document.created && document.document) created.set(document.document, document.created);
  if (document.document !== undefined) {
    merged.document = document.document;
    if (document.refs !== undefined) merged.refs = document.refs;
  }
  merged.updatedAt = o.updatedAt;
  return merged as unknown as PageNode;
}
