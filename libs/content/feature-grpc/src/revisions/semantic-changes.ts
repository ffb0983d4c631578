import { canonicalJson, commonSubsequence, DEFAULT_LAYOUT, FileNode, PageNode, ROOT_KEY, trieDiff } from '@bindery/content/domain';
import { contentRevisionsV1 as pb } from '@bindery/shared/contracts';
import { changeAttribute } from './revision-messages';
import type { StoredRevision } from './stored-revision';

/** The official RevisionSemanticChange (0.202.0), as content's message. */
export type SemanticChange = pb.SemanticChange;

/** Which page fields each page type reports in `page_edited` (RevisionPage{Document,Group,Link}ChangeAttributes). */
const ATTRIBUTES: Record<PageNode['type'], Array<keyof PageNode>> = {
  document: ['title', 'description', 'slug', 'document', 'cover', 'emoji', 'layout'],
  group: ['title', 'emoji', 'slug'],
  link: ['title', 'emoji', 'target'],
};

/** A revision's pages read as needed, with their slug paths. */
class PagesOf {
  readonly pages = new Map<string, PageNode>();
  constructor(private readonly revision: StoredRevision) {}

  /** Reads these pages and their ancestors (a level per round trip). */
  async load(ids: Iterable<string>): Promise<void> {
    let wanted = [...new Set(ids)].filter((id) => !this.pages.has(id));
    while (wanted.length) {
      const got = await this.revision.pagesOf(wanted);
      got.forEach((page, id) => this.pages.set(id, page));
      wanted = [...new Set([...got.values()].flatMap((p) => (p.parent !== null && !this.pages.has(p.parent) ? [p.parent] : [])))];
    }
  }

  path(id: string): string {
    const slugs: string[] = [];
    for (let page = this.pages.get(id); page && slugs.length < 10_000; page = page.parent === null ? undefined : this.pages.get(page.parent)) slugs.unshift(page.slug);
    return slugs.join('/');
  }

  /** The official ChangedRevisionPage. */
  changed(id: string): pb.ChangedPage {
    const page = this.pages.get(id)!;
    return { id, type: page.type, title: page.title, path: this.path(id) };
  }
}

const layoutOf = (page: PageNode) => ({ ...DEFAULT_LAYOUT, ...(page.layout ?? {}) });

/** `{before?, after?}` of each reported field that differs (an absent value is left out of its side). */
function pageAttributes(before: PageNode, after: PageNode): Record<string, pb.ChangeAttribute> {
  const out: Record<string, pb.ChangeAttribute> = {};
  for (const field of ATTRIBUTES[after.type]) {
    const [b, a] = field === 'layout' ? [layoutOf(before), layoutOf(after)] : [before[field], after[field]];
    if (canonicalJson(b) === canonicalJson(a)) continue;
    out[field] = changeAttribute(field, b, a);
  }
  return out;
}

/** Pages kept in a child list whose place among the others changed (those outside a longest common order). */
function reordered(before: readonly string[], after: readonly string[]): string[] {
  const [inBefore, inAfter] = [new Set(before), new Set(after)];
  const [b, a] = [before.filter((id) => inAfter.has(id)), after.filter((id) => inBefore.has(id))];
  if (b.join('\n') === a.join('\n')) return [];
  const kept = new Set(commonSubsequence(b, a).map(([, j]) => a[j]));
  return a.filter((id) => !kept.has(id));
}

/**
 * The semantic changes from one revision to another, in the official shapes: pages created, edited
 * (the fields the official attributes list for the page's type), deleted, and moved (to another
 * parent, or to another place among the same siblings); files created, edited and deleted. Only what
 * differs is read: the tries are compared subtree by subtree. Ordered by page id (per page: created,
 * deleted, edited, moved), then files by id.
 */
export async function semanticChanges(from: StoredRevision, to: StoredRevision, downloadUrlOf: (file: FileNode) => string): Promise<SemanticChange[]> {
  const [pageDiff, fileDiff] = await Promise.all([trieDiff(from.nodes, from.pagesRoot, to.pagesRoot), trieDiff(from.nodes, from.filesRoot, to.filesRoot)]);
  const ids = [...pageDiff.keys()].filter((k) => k !== ROOT_KEY);
  const [before, after] = [new PagesOf(from), new PagesOf(to)];
  await Promise.all([before.load(ids), after.load(ids)]);

  const lists: Array<[string[], string[]]> = [];
  for (const id of ids) {
    const [b, a] = [before.pages.get(id), after.pages.get(id)];
    if (b && a) lists.push([b.children, a.children]);
  }
  if (pageDiff.has(ROOT_KEY)) lists.push([(await from.root()).children, (await to.root()).children]);
  const moved = new Set(lists.flatMap(([b, a]) => reordered(b, a)));
  for (const id of ids) {
    const [b, a] = [before.pages.get(id), after.pages.get(id)];
    if (b && a && b.parent !== a.parent) moved.add(id);
  }
  await Promise.all([before.load(moved), after.load(moved)]);

  const changes: SemanticChange[] = [];
  for (const id of [...new Set([...ids, ...moved])].sort()) {
    const [b, a] = [before.pages.get(id), after.pages.get(id)];
    if (!b && a) changes.push({ type: 'page_created', page: after.changed(id), attributes: {} });
    else if (b && !a) changes.push({ type: 'page_deleted', page: before.changed(id), attributes: {} });
    if (!b || !a) continue;
    const attributes = pageAttributes(b, a);
    if (Object.keys(attributes).length) changes.push({ type: 'page_edited', page: after.changed(id), attributes });
    if (moved.has(id)) {
      const parent = { before: b.parent !== null ? before.changed(b.parent) : undefined, after: a.parent !== null ? after.changed(a.parent) : undefined };
      changes.push({ type: 'page_moved', page: after.changed(id), parent, attributes: {} });
    }
  }

  const fileIds = [...fileDiff.keys()].sort();
  const [filesBefore, filesAfter] = await Promise.all([from.filesOf(fileIds), to.filesOf(fileIds)]);
  const changedFile = (file: FileNode) => ({ id: file.id, name: file.name, contentType: file.contentType, downloadURL: downloadUrlOf(file) });
  for (const id of fileIds) {
    const [b, a] = [filesBefore.get(id), filesAfter.get(id)];
    if (!b && a) changes.push({ type: 'file_created', file: changedFile(a), attributes: {} });
    else if (b && !a) changes.push({ type: 'file_deleted', file: changedFile(b), attributes: {} });
    if (!b || !a) continue;
    const attributes: Record<string, pb.ChangeAttribute> = {};
    const attribute = (name: string, x: unknown, y: unknown) => {
      if (canonicalJson(x) !== canonicalJson(y)) attributes[name] = changeAttribute(name, x, y);
    };
    attribute('name', b.name, a.name);
    if (b.blobId !== a.blobId || b.sha256 !== a.sha256) attribute('downloadURL', downloadUrlOf(b), downloadUrlOf(a));
    attribute('size', b.size, a.size);
    attribute('contentType', b.contentType, a.contentType);
    attribute('dimensions', b.dimensions, a.dimensions);
    if (Object.keys(attributes).length) changes.push({ type: 'file_edited', file: changedFile(a), attributes });
  }
  return changes;
}
