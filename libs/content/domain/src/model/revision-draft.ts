import { DomainError } from '@bindery/platform/errors';
import type { Document } from '@bindery/shared/markdown';
import { contentHash } from './content-hash';
import { FileNode, PageNode, RootNode } from './page-node';

/** Reads a stored revision lazily: only what a change touches is ever loaded. */
export interface RevisionSource {
  page(id: string): Promise<PageNode | undefined>;
  root(): Promise<RootNode>;
  file(id: string): Promise<FileNode | undefined>;
  /** every file (only for resolving a file written by its name) */
  files(): Promise<FileNode[]>;
  document(hash: string): Promise<Document | undefined>;
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

  constructor(readonly base: RevisionSource) {}

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

  async siblingSlugs(parent: string | null, except?: string): Promise<Set<string>> {
    const ids = (await this.childrenOf(parent)).filter((id) => id !== except);
    const pages = await Promise.all(ids.map((id) => this.page(id)));
    return new Set(pages.map((p) => p?.slug ?? ''));
  }

  putPage(page: PageNode): void {
    this.pages.set(page.id, page);
  }

  /** Records what a change did to a page it named (a parent whose child list changed is not "affected"). */
  mark(id: string, change: 'created' | 'updated' | 'deleted'): void {
    const before = this.touched.get(id);
    if (change === 'deleted' && before === 'created') this.touched.delete(id);
    else if (change === 'deleted' || !before) this.touched.set(id, change);
  }

  removePage(id: string): void {
    this.pages.set(id, null);
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
      const children = await this.childrenOf(parent);
      found = undefined;
      for (const id of children) {
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
