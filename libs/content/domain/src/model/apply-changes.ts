import { DomainError } from '@bindery/platform/errors';
import { ContentRef, Document, layoutOptionsOf, markdownToDocument, MarkdownInputError, referencesOf } from '@bindery/shared/markdown';
import { ContentChange, DocumentInput, ImportFields, InsertFileItem, PageFields } from './change-input';
import { LinkTargets } from './link-targets';
import { FileNode, PageNode } from './page-node';
import { RevisionDraft } from './revision-draft';
import { RevertSource, revertBlocks, revertPage } from './revert-page';
import { ImportedReusableContent, ReusableContentNode, ReusableContentSources, titleFromSource } from './reusable-content';
import { assertSlugFree, slugFromTitle, uniqueSlug } from './slugs';

export interface ApplyContext {
  now: string;
  newId(): string;
  /** stores one file's bytes and answers its record (fetching a url through the outbound guard) */
  ingest(item: InsertFileItem): Promise<FileNode>;
  /**
   * The revision a `revert_page` goes back to: the one named, or without a name the default (a
   * change request's merge base); undefined when there is no such revision of the space, or no default.
   */
  revertSource(revision: string | undefined): Promise<RevertSource | undefined>;
  /** files of an import already stored, by the paths that name them (sources of imported pages resolve to them) */
  importedFiles?: ReadonlyMap<string, string>;
  /** an import's reusable contents: they replace the base's, and pages' includes resolve against their files */
  reusableContents?: readonly ImportedReusableContent[];
  /** the reusable contents the base revision holds (`{% include "/reusable-content/<id>" %}` names one) */
  baseReusableContents?: ReadonlySet<string>;
}

export interface AppliedChange {
  object: 'created_page' | 'updated_page' | 'deleted_page';
  page: string;
  ref?: string;
}

export interface ApplyOutcome {
  changes: AppliedChange[];
  insertedFiles: FileNode[];
  /** the new revision's reusable contents, when the batch sets them (an import) */
  reusableContents?: ReusableContentNode[];
}

const DEFAULT_TITLE = 'Untitled';
const bad = (message: string) => new DomainError('invalid', message);

/** A first conversion of a page's Markdown, with the link destinations and file sources it names. */
interface FirstPass {
  result: ReturnType<typeof markdownToDocument>;
  hrefs: Set<string>;
  sources: Set<string>;
  /** the paths of its `{% include %}` lines */
  includes: Set<string>;
}

/**
 * The first conversion of each Markdown text of a batch, kept for the batch: it gives the title and front
 * matter, and when the text names no link or file it is the document too (one parse per page, not three).
 */
class FirstPasses {
  private readonly known = new Map<string, FirstPass>();

  of(markdown: string, at: string): FirstPass {
    const cached = this.known.get(markdown);
    if (cached) return cached;
    const hrefs = new Set<string>();
    const sources = new Set<string>();
    const includes = new Set<string>();
    try {
      const result = markdownToDocument(markdown, {
        resolveLink: (href) => (hrefs.add(href), null),
        resolveFile: (src) => (sources.add(src), null),
        resolveReusableContent: (path) => (includes.add(path), null),
      });
      const pass = { result, hrefs, sources, includes };
      this.known.set(markdown, pass);
      return pass;
    } catch (err) {
      if (err instanceof MarkdownInputError) throw bad(`${at}.document: ${err.message}`);
      throw err;
    }
  }
}

/** Page fields from a change, then from the Markdown's front matter, which take precedence (as Git Sync does). */
function fieldsOf(
  change: PageFields,
  document: DocumentInput | undefined,
  at: string,
  passes: FirstPasses,
): { fields: Partial<PageNode>; markdownTitle?: string; cover?: PendingCover } {
  const fields: Partial<PageNode> = {};
  const put = (key: keyof PageNode, value: unknown, removeWhenEmpty = false) => {
    if (value === undefined) return;
    (fields as Record<string, unknown>)[key] = removeWhenEmpty && value === '' ? undefined : value;
  };
  put('emoji', change.emoji, true);
  put('icon', change.icon, true);
  put('description', change.description);
  put('hidden', change.hidden);
  put('noIndex', change.noIndex);
  put('noRobotsIndex', change.noRobotsIndex);
  put('condition', change.condition, true);
  if (!document || !('markdown' in document)) return { fields };
  const { frontmatter: fm, title } = passes.of(document.markdown, at).result;
  for (const key of ['description', 'icon', 'emoji', 'hidden', 'noIndex', 'noRobotsIndex'] as const) put(key, fm[key]);
  if (fm.layout) fields.layout = layoutOptionsOf(fm.layout);
  const cover = fm.cover !== undefined ? { source: fm.cover, yPos: fm.coverY ?? 0, ...(fm.coverHeight !== undefined ? { height: fm.coverHeight } : {}) } : undefined;
  return { fields, markdownTitle: title, cover };
}

/** A front matter `cover` waiting for the tree: its source resolves like an image's (a file of the space, or a URL). */
interface PendingCover {
  source: string;
  yPos: number;
  height?: number;
}

/** An imported page's title is SUMMARY.md's link text when it gives one; otherwise the Markdown's `# H1`, then the change's. */
function titleOf(change: PageFields & ImportFields, markdownTitle: string | undefined): string | undefined {
  return (change.source !== undefined && change.title) || markdownTitle || change.title;
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

async function placeAt(draft: RevisionDraft, parent: string | null, id: string, at: number | undefined, field: string, now: string): Promise<void> {
  const children = (await draft.childrenOf(parent)).filter((c) => c !== id);
  if (at !== undefined && at > children.length) throw bad(`${field}.at is ${at}, but there are only ${children.length} pages there.`);
  children.splice(at ?? children.length, 0, id);
  await draft.setChildren(parent, children, now);
}

async function assertParent(draft: RevisionDraft, into: string | null, at: string): Promise<void> {
  if (into === null) return;
  const parent = await draft.page(into);
  if (!parent) throw bad(`${at}.into: no page "${into}" in this revision.`);
  if (parent.type === 'link') throw bad(`${at}.into: a link page cannot hold pages.`);
}

/**
 * Applies a batch of changes to a draft in order, all or nothing (the caller stores nothing unless this
 * resolves). Markdown is converted after the tree is final, so a link may name a page inserted later in
 * the same batch, by path or by its batch-local `ref`.
 */
export async function applyChanges(draft: RevisionDraft, changes: ContentChange[], ctx: ApplyContext): Promise<ApplyOutcome> {
  const targets = new LinkTargets(draft);
  const pendingDocuments = new Map<string, { input: DocumentInput; at: string; source?: string }>();
  const insertedFiles: FileNode[] = [];
  const refs: Record<string, string> = {};
  const passes = new FirstPasses();
  const pendingCovers = new Map<string, { cover: PendingCover; source?: string }>();
  for (const [path, file] of ctx.importedFiles ?? []) targets.addSourceFile(path, file);
  const includes = new Includes(ctx);

  for (const [i, change] of changes.entries()) {
    const at = `changes[${i}]`;
    if (change.operation === 'insert_files') {
      for (const [j, item] of change.files.entries()) {
        if (item.ref !== undefined && targets.hasRef(item.ref)) throw bad(`${at}.files[${j}].ref "${item.ref}" is used twice in the batch.`);
        const file = await ctx.ingest(item);
        draft.files.set(file.id, file);
        insertedFiles.push(file);
        if (item.ref !== undefined) targets.fileRefs.set(item.ref, file.id);
      }
    } else if (change.operation === 'insert_page') {
      const into = change.into ?? null;
      await assertParent(draft, into, at);
      if (change.ref !== undefined && targets.hasRef(change.ref)) throw bad(`${at}.ref "${change.ref}" is used twice in the batch.`);
      const type = change.type ?? 'document';
      const { fields, markdownTitle, cover } = type === 'link' ? { fields: fieldsOf(change, undefined, at, passes).fields } : fieldsOf(change, change.document, at, passes);
      const title = titleOf(change, markdownTitle) || DEFAULT_TITLE;
      const taken = await draft.siblingSlugs(into);
      let slug: string;
      if (change.slug !== undefined) {
        assertSlugFree(change.slug, taken);
        slug = change.slug;
      } else slug = uniqueSlug(change.preferredSlug || slugFromTitle(title), taken);
      const id = ctx.newId();
      if (type === 'link' && !change.target) throw bad(`${at}.target is required for a link page.`);
      const target = type === 'link' ? { target: change.target } : {};
      draft.putPage(withoutUndefined({ ...fields, ...target, id, type, title, slug, parent: into, children: [], createdAt: ctx.now, updatedAt: ctx.now }) as PageNode);
      if (cover) pendingCovers.set(id, { cover, source: change.source });
      await placeAt(draft, into, id, change.at, at, ctx.now);
      draft.mark(id, 'created');
      if (change.source !== undefined) targets.addSource(change.source, id);
      if (type === 'document') pendingDocuments.set(id, { input: change.document, at, source: change.source });
      if (change.ref !== undefined) {
        targets.pageRefs.set(change.ref, id);
        refs[id] = change.ref;
      }
    } else if (change.operation === 'update_page') {
      const page = await draft.existingPage(change.page, `${at}.page`);
      const { fields, markdownTitle, cover } = fieldsOf(change, page.type === 'link' ? undefined : change.document, at, passes);
      const next: PageNode = { ...page, ...fields, updatedAt: ctx.now };
      const title = titleOf(change, markdownTitle);
      if (title) next.title = title;
      if (page.type === 'link' && change.target) next.target = change.target;
      // an imported page's cover and layout are its front matter's: absent there, absent here
      if (change.source !== undefined && change.document && 'markdown' in change.document) {
        if (!fields.layout) delete next.layout;
        if (!cover) delete next.cover;
      }
      if (cover) pendingCovers.set(page.id, { cover, source: change.source });
      const moving = change.into !== undefined && change.into !== page.parent;
      const into = change.into === undefined ? page.parent : change.into;
      if (moving) {
        await assertParent(draft, into, at);
        if (into !== null && (await draft.isWithin(into, page.id))) throw bad(`${at}.into: a page cannot move into itself or one of its own pages.`);
      }
      const taken = await draft.siblingSlugs(into, page.id);
      if (change.slug !== undefined && change.slug !== page.slug) {
        assertSlugFree(change.slug, taken);
        next.slug = change.slug;
      } else if (change.preferredSlug && change.preferredSlug !== page.slug) next.slug = uniqueSlug(change.preferredSlug, taken);
      else if (moving && taken.has(page.slug)) next.slug = uniqueSlug(page.slug, taken);
      if (moving) {
        await draft.setChildren(
          page.parent,
          (await draft.childrenOf(page.parent)).filter((c) => c !== page.id),
          ctx.now,
        );
        next.parent = into;
      }
      draft.putPage(withoutUndefined(next));
      if (moving || change.at !== undefined) await placeAt(draft, into, page.id, change.at, at, ctx.now);
      draft.mark(page.id, 'updated');
      if (change.source !== undefined) targets.addSource(change.source, page.id);
      if (change.document && page.type === 'document') pendingDocuments.set(page.id, { input: change.document, at, source: change.source });
    } else if (change.operation === 'revert_page') {
      const source = await ctx.revertSource(change.revision);
      if (!source)
        throw bad(change.revision === undefined ? `${at}.revision is required outside a change request.` : `${at}.revision: no revision "${change.revision}" in this space.`);
      if (change.block) await revertBlocks(draft, source, change.page, change.block, at, ctx.now);
      else await revertPage(draft, source, change.page, at, ctx.now);
      pendingDocuments.delete(change.page);
    } else {
      const page = await draft.existingPage(change.page, `${at}.page`);
      await draft.setChildren(
        page.parent,
        (await draft.childrenOf(page.parent)).filter((c) => c !== page.id),
        ctx.now,
      );
      await draft.removeWithSubPages(page.id);
      pendingDocuments.delete(page.id);
    }
  }

  for (const [id, { input, at, source }] of pendingDocuments) {
    const page = await draft.page(id);
    if (!page) continue;
    let document: Document | undefined;
    if ('markdown' in input) {
      const base = page.parent === null ? '' : await draft.pathOf(page.parent);
      document = (await convertMarkdown(passes.of(input.markdown, at), input.markdown, targets, base, at, source, includes)).document;
    } else if ('document' in input) document = input.document;
    const next: PageNode = { ...page };
    if (document && document.nodes.length) {
      next.document = draft.putDocument(document);
      next.refs = distinctRefs(referencesOf(document).map((r) => r.ref));
    } else {
      delete next.document;
      delete next.refs;
    }
    draft.putPage(withoutUndefined(next));
  }

  for (const [id, { cover, source }] of pendingCovers) {
    const page = await draft.page(id);
    if (!page) continue;
    const file = (await targets.resolveFiles([cover.source], source)).get(cover.source);
    const ref: ContentRef = file ?? { kind: 'url', url: cover.source };
    draft.putPage({ ...page, cover: { ref, yPos: cover.yPos, ...(cover.height !== undefined ? { height: cover.height } : {}) } });
  }

  const reusableContents = ctx.reusableContents ? await importReusableContents(draft, ctx.reusableContents, targets, passes, includes) : undefined;
  const outcome: AppliedChange[] = [...draft.touched].map(([page, what]) => ({
    object: what === 'created' ? 'created_page' : what === 'updated' ? 'updated_page' : 'deleted_page',
    page,
    ...(refs[page] !== undefined && what === 'created' ? { ref: refs[page] } : {}),
  }));
  return { changes: outcome, insertedFiles, ...(reusableContents ? { reusableContents } : {}) };
}

/** What an `{% include %}` path names: an imported reusable content by its file, or one of the base's by `/reusable-content/<id>`. */
class Includes {
  private readonly sources: ReusableContentSources;

  constructor(private readonly ctx: ApplyContext) {
    this.sources = new ReusableContentSources(ctx.reusableContents ?? []);
  }

  resolve(path: string, source?: string): ContentRef | null {
    const imported = this.sources.size ? this.sources.resolve(path, source) : undefined;
    if (imported) return { kind: 'reusable-content', reusableContent: imported };
    const id = /^\/reusable-content\/([A-Za-z0-9_-]+)$/.exec(path)?.[1];
    const known = this.ctx.reusableContents ? this.ctx.reusableContents.some((r) => r.id === id) : this.ctx.baseReusableContents?.has(id ?? '');
    return id && known ? { kind: 'reusable-content', reusableContent: id } : null;
  }
}

/** An import's reusable contents: each one's Markdown converted against the final tree, its title from the file (front matter or `# H1`) or its name. */
async function importReusableContents(
  draft: RevisionDraft,
  contents: readonly ImportedReusableContent[],
  targets: LinkTargets,
  passes: FirstPasses,
  includes: Includes,
): Promise<ReusableContentNode[]> {
  const out: ReusableContentNode[] = [];
  for (const [i, content] of contents.entries()) {
    const at = `reusableContents[${i}]`;
    const first = passes.of(content.markdown, at);
    const { document } = await convertMarkdown(first, content.markdown, targets, '', at, content.source, includes);
    out.push({
      id: content.id,
      title: content.title || first.result.title || titleFromSource(content.source),
      ...(document.nodes.length ? { document: draft.putDocument(document) } : {}),
      git: { path: content.source, ...(content.oid ? { oid: content.oid } : {}) },
    });
  }
  return out;
}

/**
 * Markdown → document with its links resolved against the final tree. The converter is synchronous and
 * resolving needs the store, so the first pass (FirstPasses, shared with the title) collects the
 * destinations, they are resolved, and a second pass converts with the answers; a text naming none is
 * done after the first.
 */
async function convertMarkdown(first: FirstPass, markdown: string, targets: LinkTargets, base: string, at: string, source: string | undefined, includes: Includes) {
  if (!first.hrefs.size && !first.sources.size && !first.includes.size) return first.result;
  try {
    const links = await targets.resolveLinks([...first.hrefs], base, source);
    const files = await targets.resolveFiles([...first.sources], source);
    return markdownToDocument(markdown, {
      resolveLink: (href) => links.get(href) ?? null,
      resolveFile: (src) => files.get(src) ?? null,
      resolveReusableContent: (path) => includes.resolve(path, source),
    });
  } catch (err) {
    if (err instanceof MarkdownInputError) throw bad(`${at}.document: ${err.message}`);
    throw err;
  }
}

function distinctRefs(refs: ContentRef[]): ContentRef[] {
  const seen = new Map<string, ContentRef>();
  for (const ref of refs) seen.set(JSON.stringify(ref), ref);
  return [...seen.values()];
}
