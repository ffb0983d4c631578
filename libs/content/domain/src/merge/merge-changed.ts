import type { Document } from '@bindery/shared/markdown';
import { canonicalJson } from '../model/content-hash';
import { FileNode, PageNode, RootNode } from '../model/page-node';
import { mergeRevisions } from './merge-revisions';
import { MergeConflict, RevisionSnapshot } from './merge-types';

/** One revision read in batches (a stored revision reads through its tries). */
export interface RevisionReader {
  /** the pages with these ids that the revision holds */
  pagesOf(ids: readonly string[]): Promise<Map<string, PageNode>>;
  root(): Promise<RootNode>;
  documents(hashes: readonly string[]): Promise<Map<string, Document>>;
  /** the files with these ids that the revision holds */
  filesOf(ids: readonly string[]): Promise<Map<string, FileNode>>;
}

/** The keys whose records differ between the base and at least one side; every other key is equal in all three. */
export interface ChangedKeys {
  pages: ReadonlySet<string>;
  /** whether the top-level order differs */
  root: boolean;
  files: ReadonlySet<string>;
}

/** A clean merge as changes to ours: what a revision on top of ours stores. */
export interface MergeDelta {
  conflicts: MergeConflict[];
  /** changed and new pages; null: removed */
  pages: Map<string, PageNode | null>;
  /** the top-level order, when it changed */
  root?: RootNode;
  /** documents the changed pages reference that ours does not hold (theirs', and block-merged ones) */
  documents: Map<string, Document>;
  /** changed and new files; null: removed */
  files: Map<string, FileNode | null>;
  /** relative to ours, sorted */
  changedPages: string[];
  deletedPages: string[];
}

const parentsOf = (pages: Iterable<PageNode>) => [...pages].flatMap((p) => (p.parent === null ? [] : [p.parent]));

/** A page as the merge sees it when it is only context: its document plays no part (it is equal on all sides). */
function withoutDocument(page: PageNode): PageNode {
  const copy = { ...page };
  delete copy.document;
  delete copy.refs;
  return copy;
}

const sansChildren = (page: PageNode) => canonicalJson({ ...page, children: undefined, updatedAt: undefined });

/**
 * `mergeRevisions` over only what the changes can reach, with the same result as over whole
 * revisions (docs/merge.md, "The MergeRevisions RPC"). The pages it reads: the changed ones; their
 * ancestors on every side (merged parents, cycles and the "parent deleted" guard are decided on them);
 * the children, on every side, of every changed page (sibling order and sibling slugs); the siblings
 * of a renamed page; and, when the top-level order changed, every top-level page. Pages read only as context are equal on all three
 * sides; the merge may see them with part of their children, so their result is ours' as it is.
 * Answers null when the inputs break that premise (a child list and a parent field that disagree):
 * the caller merges the whole revisions instead.
 */
export async function mergeChanged(base: RevisionReader, ours: RevisionReader, theirs: RevisionReader, changed: ChangedKeys, now: string): Promise<MergeDelta | null> {
  const sides = [base, ours, theirs];
  const loaded = sides.map(() => new Map<string, PageNode>());
  const requested = new Set<string>();
  const read = async (ids: Iterable<string>) => {
    const fresh = [...new Set(ids)].filter((id) => !requested.has(id));
    fresh.forEach((id) => requested.add(id));
    if (!fresh.length) return [];
    const got = await Promise.all(sides.map((side) => side.pagesOf(fresh)));
    got.forEach((pages, i) => pages.forEach((page, id) => loaded[i].set(id, page)));
    return got.flatMap((pages) => [...pages.values()]);
  };

  // the changed pages, then their ancestors on every side
  let fresh = await read(changed.pages);
  while (fresh.length) fresh = await read(parentsOf(fresh));
  const roots = await Promise.all(sides.map((side) => side.root()));
  const children = [...changed.pages].flatMap((id) => loaded.flatMap((pages) => pages.get(id)?.children ?? []));
  if (changed.root) children.push(...roots.flatMap((r) => r.children));
  // a renamed page's siblings, wherever it is: the sibling-slug rule compares it with them
  for (const id of changed.pages) {
    const versions = loaded.map((pages) => pages.get(id));
    if (new Set(versions.map((p) => p?.slug)).size < 2) continue;
    for (const parent of new Set(versions.flatMap((p) => (p ? [p.parent] : [])))) {
      if (parent === null) children.push(...roots.flatMap((r) => r.children));
      else children.push(...loaded.flatMap((pages) => pages.get(parent)?.children ?? []));
    }
  }
  fresh = await read(children);
  // a child listed under a changed page whose own parent is elsewhere (inconsistent input): take its ancestors too
  while (fresh.length) fresh = await read(parentsOf(fresh));

  const context = (id: string) => !changed.pages.has(id);
  const hashes = sides.map((_, i) => [...changed.pages].flatMap((id) => loaded[i].get(id)?.document ?? []));
  const [documents, files] = await Promise.all([
    Promise.all(sides.map((side, i) => side.documents(hashes[i]))),
    Promise.all(sides.map((side) => side.filesOf([...changed.files]))),
  ]);
  const snapshots: RevisionSnapshot[] = sides.map((_, i) => ({
    root: roots[i],
    pages: new Map([...loaded[i]].map(([id, page]) => [id, context(id) ? withoutDocument(page) : page])),
    documents: documents[i],
    files: files[i],
  }));
  const [b, o, t] = snapshots;
  const merged = mergeRevisions(b, o, t, now);
  if (merged.conflicts.length) return { conflicts: merged.conflicts, pages: new Map(), documents: new Map(), files: new Map(), changedPages: [], deletedPages: [] };

  // context pages: the merge must have left them as they are, apart from the children it could not see
  const seen = (ids: string[]) => ids.filter((id) => merged.pages.has(id));
  for (const [id, page] of o.pages) {
    if (!context(id)) continue;
    const result = merged.pages.get(id);
    if (!result || sansChildren(result) !== sansChildren(page) || result.children.join('\n') !== seen(page.children).join('\n')) return null;
  }
  const rootChanged = merged.root.children.join('\n') !== roots[1].children.join('\n');
  if (!changed.root && merged.root.children.join('\n') !== seen(roots[1].children).join('\n')) return null;

  const pages = new Map<string, PageNode | null>();
  for (const id of [...changed.pages].sort()) {
    const [before, after] = [loaded[1].get(id), merged.pages.get(id)];
    if (!after) {
      if (before) pages.set(id, null);
    } else if (!before || canonicalJson(before) !== canonicalJson(after)) pages.set(id, after);
  }
  const referenced = new Set([...pages.values()].flatMap((p) => (p?.document ? [p.document] : [])));
  const fileChanges = new Map<string, FileNode | null>();
  for (const id of [...changed.files].sort()) {
    const [before, after] = [files[1].get(id), merged.files.get(id)];
    if (!after) {
      if (before) fileChanges.set(id, null);
    } else if (!before || canonicalJson(before) !== canonicalJson(after)) fileChanges.set(id, after);
  }
  return {
    conflicts: [],
    pages,
    ...(changed.root && rootChanged ? { root: merged.root } : {}),
    documents: new Map([...merged.documents].filter(([hash]) => referenced.has(hash))),
    files: fileChanges,
    changedPages: [...pages].filter(([, p]) => p).map(([id]) => id),
    deletedPages: [...pages].filter(([, p]) => !p).map(([id]) => id),
  };
}
