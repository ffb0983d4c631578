/**
 * The slugs of the pages under one parent, by slug and by page id: what slug uniqueness and path
 * lookups ask of a place in the tree, answered without reading the sibling pages again. Built once per
 * parent and kept up to date as pages come, go, move or change slug.
 */
export class SiblingSlugs {
  private readonly slugOf: Map<string, string>;
  private readonly idsBySlug: Map<string, Set<string>>;

  constructor(entries: Iterable<readonly [id: string, slug: string]> = []) {
    this.slugOf = new Map();
    this.idsBySlug = new Map();
    for (const [id, slug] of entries) this.set(id, slug);
  }

  get size(): number {
    return this.slugOf.size;
  }

  /** A copy that changes independently of this one. */
  clone(): SiblingSlugs {
    return new SiblingSlugs(this.slugOf);
  }

  has(id: string): boolean {
    return this.slugOf.has(id);
  }

  /** Whether a page other than `except` uses the slug. */
  taken(slug: string, except?: string): boolean {
    const ids = this.idsBySlug.get(slug);
    if (!ids) return false;
    return ids.size > 1 || except === undefined || !ids.has(except);
  }

  /** The slugs in use, except that of one page, as the set the slug rules read. */
  takenExcept(except?: string): { has(slug: string): boolean } {
    return { has: (slug) => this.taken(slug, except) };
  }

  /** The pages with a slug (more than one only in content written before slugs were unique). */
  idsWith(slug: string): ReadonlySet<string> {
    return this.idsBySlug.get(slug) ?? new Set();
  }

  set(id: string, slug: string): void {
    const before = this.slugOf.get(id);
    if (before === slug) return;
    if (before !== undefined) this.delete(id);
    this.slugOf.set(id, slug);
    const ids = this.idsBySlug.get(slug);
    if (ids) ids.add(id);
    else this.idsBySlug.set(slug, new Set([id]));
  }

  delete(id: string): void {
    const slug = this.slugOf.get(id);
    if (slug === undefined) return;
    this.slugOf.delete(id);
    const ids = this.idsBySlug.get(slug)!;
    ids.delete(id);
    if (!ids.size) this.idsBySlug.delete(slug);
  }
}
