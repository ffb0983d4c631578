import type { Document } from '@bindery/shared/markdown';
import { PageNode } from '../model/page-node';
import { mergeFiles } from './merge-files';
import { contentOf, mergePages } from './merge-pages';
import { checkTree, mergeChildren } from './merge-tree';
import { MergeConflict, MergeResult, RevisionSnapshot } from './merge-types';

const KIND_ORDER: MergeConflict['kind'][] = ['page', 'document', 'tree', 'file'];

/**
 * Three-way merge of revisions: `base` is where a change request started, `ours` the space's current
 * revision, `theirs` the change request's head. Edits to different pages, fields or blocks all
 * survive; overlapping different edits are conflicts (see docs/merge.md for every rule). Pure and
 * deterministic: the same inputs give the same result, whatever the maps' insertion order.
 */
export function mergeRevisions(base: RevisionSnapshot, ours: RevisionSnapshot, theirs: RevisionSnapshot, now: string): MergeResult {
  const load = (hash: string): Document => {
    const document = ours.documents.get(hash) ?? theirs.documents.get(hash) ?? base.documents.get(hash);
    if (!document) throw new Error(`mergeRevisions: document ${hash} is referenced but not in the snapshots.`);
    return document;
  };
  const merged = mergePages(base.pages, ours.pages, theirs.pages, load);
  const pages = merged.pages;
  const rootChildren = mergeChildren(pages, base, ours, theirs);
  const conflicts = [...merged.conflicts, ...checkTree(pages, rootChildren, ours)];
  const files = mergeFiles(base.files, ours.files, theirs.files);
  conflicts.push(...files.conflicts);

  const result = new Map<string, PageNode>();
  const documents = new Map<string, Document>();
  const changedPages: string[] = [];
  for (const id of [...pages.keys()].sort()) {
    const page = withUpdatedAt(pages.get(id)!, base.pages.get(id), ours.pages.get(id), theirs.pages.get(id), now);
    result.set(id, page);
    if (page.document !== undefined && !ours.documents.has(page.document)) documents.set(page.document, merged.created.get(page.document) ?? load(page.document));
    const before = ours.pages.get(id);
    if (!before || contentOf(before) !== contentOf(page) || before.updatedAt !== page.updatedAt) changedPages.push(id);
  }
  const deletedPages = [...ours.pages.keys()].filter((id) => !pages.has(id)).sort();

  conflicts.sort(
    (a, b) =>
      KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
      (a.page ?? a.file ?? '').localeCompare(b.page ?? b.file ?? '') ||
      (a.field ?? '').localeCompare(b.field ?? '') ||
      a.reason.localeCompare(b.reason),
  );
  return { conflicts, root: { children: rootChildren }, pages: result, documents, files: files.files, changedPages, deletedPages };
}

/**
 * A page equal to one side's keeps that side's `updatedAt` (the side that wrote it, when only one did);
 * a page made of both sides' changes was written now.
 */
function withUpdatedAt(page: PageNode, base: PageNode | undefined, ours: PageNode | undefined, theirs: PageNode | undefined, now: string): PageNode {
  const content = contentOf(page);
  const touched = (side: PageNode | undefined) => !!side && (!base || contentOf(side) !== contentOf(base) || side.updatedAt !== base.updatedAt);
  const sides = touched(theirs) && !touched(ours) ? [theirs, ours] : [ours, theirs];
  for (const side of sides) if (side && contentOf(side) === content) return { ...page, updatedAt: side.updatedAt };
  return { ...page, updatedAt: now };
}
