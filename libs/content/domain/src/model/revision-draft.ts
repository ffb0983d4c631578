import { DomainError } from '@bindery/platform/errors';
import type { Document } from '@bindery/shared/markdown';
import { contentHash } from './content-hash';
import { FileNode, PageNode, RootNode } from './page-node';
import { SiblingSlugs } from './sibling-slugs';

/** Reads a stored revision lazily: only what a change touches is ever loaded. */
export interface RevisionSource {
  page(id: string): Promise<PageNode | undefined>;
  root(): Promise<RootNode>;
  file(id: string): Promise<FileNode | undefined>;
  /** every file (only for resolving a file written by its name) */
  files(): Promise<FileNode[]>;
  document(hash: string): Promise<Document | undefined>;
  /** the pages with these ids, absent ones left out (in a few round trips, when the source can) */
  pagesOf?(ids: readonly string[]): Promise<Map<string, PageNode>>;
}

export interface DraftOptions {
  /** the slugs under a parent in the base revision, when known already (the draft never changes it) */
  baseSiblings?(parent: string | null): SiblingSlugs | undefined;
}

/**
 * A revision being written: the base revision plus the pages, files and documents changed so far. The
 * change operations work on it; at the end it lists exactly what the new revision must store.
 */
export class RevisionDraft {
  readonly pages = new Map<string, PageNode | null>();
  readonly files = new Map<string, FileNode>();
  readonly documents = new Map<string, Document>();
  rootNode?: RootNode;
  /** pages in the order the batch first touched them, with what happened to them */
  readonly touched = new Map<string, 'created' | 'updated' | 'deleted'>();
  /** the slugs under each parent the batch looked at, kept up to date with the draft */
  private readonly siblings = new Map<string | null, SiblingSlugs>();

  constructor(
    readonly base: RevisionSource,
    private readonly options: DraftOptions = {},
  ) {}

  async page(id: string): Promise<PageNode | undefined> {
    if (this.pages.has(id)) return this.pages.get(id) ?? undefined;
    return this.base.page(id);
  }

  async existingPage(id: string, field: string): Promise<PageNode> {
    const page = await this.page(id);
    if (!page) throw new DomainError('invalid', `${field}: no page "${id}" in this revision.`);
    return page;
  }

  async root(): Promise<RootNode> {
    return this.rootNode ?? this.base.root();
  }

  /** The ordered child ids under a page (null: the top of the tree). */
  async childrenOf(parent: string | null): Promise<string[]> {
    if (parent === null) return (await this.root()).children;
    return (await this.existingPage(parent, 'into')).children;
  }

  async setChildren(parent: string | null, children: string[], now: string): Promise<void> {
    if (parent === null) this.rootNode = { children };
    else this.putPage({ ...(await this.existingPage(parent, 'into')), children, updatedAt: now });
  }

  /** The slugs taken under a parent (a listed child that is missing counts as ""), but that of `except`. */
  async siblingSlugs(parent: string | null, except?: string): Promise<{ has(slug: string): boolean }> {
    return (await this.siblingsOf(parent)).takenExcept(except);
  }

  /**
   * The slugs under a parent as the draft has them: read once per parent (from the base's, when known,
   * with what the draft changed since), then kept up to date by every page the draft puts or removes.
   */
  async siblingsOf(parent: string | null): Promise<SiblingSlugs> {
    let index = this.siblings.get(parent);
    if (index) return index;
    const known = this.options.baseSiblings?.(parent);
    if (known) {
      index = known.clone();
      for (const [id, page] of this.pages) {
        if (page && page.parent === parent) index.set(id, page.slug);
        else index.delete(id);
      }
    } else {
      const ids = await this.childrenOf(parent);
      const pages = await this.pagesOf(ids);
      index = new SiblingSlugs(ids.map((id) => [id, pages.get(id)?.slug ?? ''] as const));
    }
    this.siblings.set(parent, index);
    return index;
  }

  /** The parents whose slugs the draft knows, as they are in the draft (for the revision it becomes). */
  knownSiblings(): ReadonlyMap<string | null, SiblingSlugs> {
    return this.siblings;
  }

  /** The pages with these ids as the draft has them (absent ones left out). */
  async pagesOf(ids: readonly string[]): Promise<Map<string, PageNode>> {
    const out = new Map<string, PageNode>();
    const fromBase: string[] = [];
    for (const id of ids) {
      if (!this.pages.has(id)) fromBase.push(id);
      else if (this.pages.get(id)) out.set(id, this.pages.get(id)!);
    }
    if (!fromBase.length) return out;
    const read = this.base.pagesOf
      ? await this.base.pagesOf(fromBase)
      : new Map((await Promise.all(fromBase.map(async (id) => [id, await this.base.page(id)] as const))).filter((e): e is readonly [string, PageNode] => !!e[1]));
    for (const [id, page] of read) out.set(id, page);
    return out;
  }

  putPage(page: PageNode): void {
    this.pages.set(page.id, page);
    for (const [parent, index] of this.siblings) {
      if (parent === page.parent) index.set(page.id, page.slug);
      else index.delete(page.id);
    }
  }

  /** Records what a change did to a page it named (a parent whose child list changed is not "affected"). */
  mark(id: string, change: 'created' | 'updated' | 'deleted'): void {
    const before = this.touched.get(id);
    if (change === 'deleted' && before === 'created') this.touched.delete(id);
    else if (change === 'deleted' || !before) this.touched.set(id, change);
  }

  removePage(id: string): void {
    this.pages.set(id, null);
    for (const index of this.siblings.values()) index.delete(id);
  }

  /** Removes a page and its sub-pages, each marked deleted (taking it out of its parent's list is the caller's part). */
  async removeWithSubPages(id: string): Promise<void> {
    const page = await this.page(id);
    if (!page) return;
    for (const child of page.children) await this.removeWithSubPages(child);
    this.removePage(id);
    this.mark(id, 'deleted');
  }

  putDocument(document: Document): string {
    const hash = contentHash(document);
    this.documents.set(hash, document);
    return hash;
  }

  async document(hash: string): Promise<Document | undefined> {
    return this.documents.get(hash) ?? this.base.document(hash);
  }

  async file(id: string): Promise<FileNode | undefined> {
    return this.files.get(id) ?? this.base.file(id);
  }

  /** The slug path of a page, from the top of the tree. */
  async pathOf(id: string): Promise<string> {
    const slugs: string[] = [];
    let current = await this.page(id);
    for (let guard = 0; current && guard < 10_000; guard += 1) {
      slugs.unshift(current.slug);
      current = current.parent === null ? undefined : await this.page(current.parent);
    }
    return slugs.join('/');
  }

  /** Whether `candidate` is `page` itself or one of its descendants (a move there would make a cycle). */
  async isWithin(candidate: string, page: string): Promise<boolean> {
    let current: PageNode | undefined = await this.page(candidate);
    for (let guard = 0; current && guard < 10_000; guard += 1) {
      if (current.id === page) return true;
      current = current.parent === null ? undefined : await this.page(current.parent);
    }
    return false;
  }

  /** The page at a slug path (`a/b/c`), walking down from the top. */
  async pageAtPath(path: string): Promise<PageNode | undefined> {
    const parts = path.split('/').filter(Boolean);
    if (!parts.length) return undefined;
    let parent: string | null = null;
    let found: PageNode | undefined;
    for (const slug of parts) {
      const ids = (await this.siblingsOf(parent)).idsWith(slug);
      found = undefined;
      // The first in the parent's order, when (in older content) several pages share the slug.
      const candidates = ids.size > 1 ? (await this.childrenOf(parent)).filter((id) => ids.has(id)) : [...ids];
      for (const id of candidates) {
        const child = await this.page(id);
        if (child?.slug === slug) {
          found = child;
          break;
        }
      }
      if (!found) return undefined;
      parent = found.id;
    }
    return found;
  }
}
