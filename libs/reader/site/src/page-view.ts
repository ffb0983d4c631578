import {
  ContentRef,
  Document,
  DocumentNode,
  FileNode,
  firstPage,
  flattenTree,
  navigationTree,
  neighbours,
  PageEntry,
  PageNode,
  pageMarkdown,
  PublishedApiSpec,
  RenderContext,
  renderDocument,
} from '@bindery/reader/render';
import type { ContentAccess, PublishedContent, ReaderSource, SiteView } from './source';
import { apiReferenceOf, apiSpecsFor, CachedApiSpecs } from './api-specs';
import { Crumb, pageMain, Place, renderShell } from './layout';
import { pageLayoutOf } from './page-layout';
import { brandOf } from './brand';
import { placeOf, siteSpaceOfSpace } from './structure';

/** One site space's revision as read for a request: its pages and where it is served. */
export class SpaceView {
  readonly entries: PageEntry[];
  private readonly byId: Map<string, PageEntry>;
  private readonly first: PageEntry | undefined;

  constructor(
    readonly basePath: string,
    readonly tree: PageNode[],
  ) {
    this.entries = flattenTree(tree);
    this.byId = new Map(this.entries.map((e) => [e.page.id, e]));
    this.first = firstPage(this.entries);
  }

  entry(pageId: string): PageEntry | undefined {
    return this.byId.get(pageId);
  }

  /** A document page's URL path (the first page at the space's root); a link page's destination. */
  hrefOf(page: PageNode): string | undefined {
    if (page.type === 'link') {
      const target = page.target as { kind?: string; url?: string; page?: string } | undefined;
      if (target?.kind === 'url' && typeof target.url === 'string' && /^https?:\/\//i.test(target.url)) return target.url;
      const linked = target?.kind === 'page' && target.page ? this.entry(target.page) : undefined;
      return linked && linked.page.type === 'document' ? this.hrefOf(linked.page) : undefined;
    }
    if (page.type !== 'document') return undefined;
    return this.first?.page.id === page.id ? `${this.basePath}/` : `${this.basePath}/${page.path ?? ''}`;
  }
}

const fileUrl = (basePath: string, file: FileNode) => `${basePath}/~files/${file.id}/${encodeURIComponent(file.name)}`;

/** The reusable contents a document uses (and those they use), loaded before rendering. */
async function reusableContents(source: ReaderSource, access: ContentAccess, doc: Document | undefined): Promise<Map<string, Document>> {
  const found = new Map<string, Document>();
  const pending: Document[] = doc ? [doc] : [];
  for (let depth = 0; depth < 3 && pending.length; depth++) {
    const ids = new Set<string>();
    const walk = (nodes: DocumentNode[] | undefined) => {
      for (const n of nodes ?? []) {
        if (n.object === 'text') continue;
        if (n.type === 'reusable-content') {
          const id = (n.data?.ref as { reusableContent?: string } | undefined)?.reusableContent;
          if (id && !found.has(id)) ids.add(id);
        }
        walk(n.nodes);
        for (const f of n.fragments ?? []) walk(f.nodes);
      }
    };
    for (const d of pending.splice(0)) walk(d.nodes);
    const loaded = await Promise.all([...ids].map(async (id) => [id, await source.reusableContent(access, id)] as const));
    for (const [id, d] of loaded) {
      if (!d) continue;
      found.set(id, d);
      pending.push(d);
    }
  }
  return found;
}

/**
 * What rendering needs about this request's world: links to pages of this space (and the root of
 * another space of the site), files where the reader serves them, reusable contents in place.
 * With `origin`, every link is absolute (Markdown for agents).
 */
export async function renderContextFor(
  source: ReaderSource,
  content: PublishedContent,
  site: SiteView,
  space: SpaceView,
  doc: Document | undefined,
  origin = '',
): Promise<RenderContext> {
  const [files, reusable] = await Promise.all([source.files(content.access), reusableContents(source, content.access, doc)]);
  const filesById = new Map(files.map((f) => [f.id, f]));
  const pageLink = (pageId: string, anchor?: string) => {
    const entry = space.entry(pageId);
    const href = entry ? space.hrefOf(entry.page) : undefined;
    if (!entry || !href) return undefined;
    return { href: `${origin}${href}${anchor ? `#${anchor}` : ''}`, title: entry.page.title, emoji: entry.page.emoji };
  };
  return {
    link(ref: ContentRef) {
      const r = ref as Record<string, unknown>;
      const otherSpace = typeof r.space === 'string' && r.space !== content.spaceId ? siteSpaceOfSpace(site, r.space) : undefined;
      if (typeof r.space === 'string' && r.space !== content.spaceId) {
        // Another space: linked when the site shows it (its root: its tree is not read for one link).
        return otherSpace ? { href: `${origin}${otherSpace.basePath}/`, title: otherSpace.title } : undefined;
      }
      switch (ref.kind) {
        case 'url':
          return typeof r.url === 'string' ? { href: r.url } : undefined;
        case 'page':
          return typeof r.page === 'string' ? pageLink(r.page) : undefined;
        case 'anchor':
          if (typeof r.anchor !== 'string') return undefined;
          return typeof r.page === 'string' ? pageLink(r.page, r.anchor) : { href: `#${r.anchor}` };
        case 'file': {
          const file = typeof r.file === 'string' ? filesById.get(r.file) : undefined;
          return file ? { href: `${origin}${fileUrl(content.basePath, file)}`, title: file.name } : undefined;
        }
        case 'space': {
          const target = typeof r.space === 'string' ? siteSpaceOfSpace(site, r.space) : undefined;
          return target ? { href: `${origin}${target.basePath}/`, title: target.title } : undefined;
        }
        default:
          return undefined;
      }
    },
    file(fileId) {
      const file = filesById.get(fileId);
      return file ? { ...file, url: `${origin}${fileUrl(content.basePath, file)}` } : undefined;
    },
    reusableContent(ref) {
      const id = (ref as { reusableContent?: string }).reusableContent;
      return id ? reusable.get(id) : undefined;
    },
    externalLinksInNewTab: !origin && brandOf(site, content.siteSpaceId).externalLinksInNewTab,
  };
}

/** The place a resolved URL shows; a site space the site does not list (it should not happen) gets a place of its own. */
export function placeFor(site: SiteView, content: PublishedContent, pagePath: string): Place {
  const found = placeOf(site, content.siteSpaceId);
  if (found) return { site, ...found, pagePath };
  const siteSpace = { id: content.siteSpaceId, title: site.title, spaceId: content.spaceId, default: true, basePath: content.basePath };
  return { site, siteSpace, variants: [siteSpace], pagePath };
}

export interface RenderedPage {
  html: string;
  markdown?: string;
}

/** The specs a page's API blocks (and those of its reusable contents) name, as the site may show them. */
export async function pageApiSpecs(specs: CachedApiSpecs | undefined, source: ReaderSource, content: PublishedContent, entry: PageEntry): Promise<Map<string, PublishedApiSpec>> {
  if (!specs) return new Map();
  const doc = await source.document(content.access, entry.page.id);
  if (!doc) return new Map();
  const reusable = await reusableContents(source, content.access, doc);
  return apiSpecsFor(specs, { organizationId: content.organizationId, credential: content.access.credential }, [doc, ...reusable.values()]);
}

/** A document page of a site in HTML. */
export async function renderPageHtml(input: {
  source: ReaderSource;
  content: PublishedContent;
  site: SiteView;
  space: SpaceView;
  entry: PageEntry;
  origin: string;
  /** the specs its API blocks show (pageApiSpecs), rendered through their cache */
  apiSpecs?: CachedApiSpecs;
  apis?: Map<string, PublishedApiSpec>;
}): Promise<string> {
  const { source, content, site, space, entry, origin } = input;
  const doc = await source.document(content.access, entry.page.id);
  const ctx = { ...(await renderContextFor(source, content, site, space, doc)), apiReference: apiReferenceOf(input.apiSpecs, input.apis ?? new Map()) };
  const rendered = doc ? renderDocument(doc, ctx) : { html: '', headings: [] };
  const place = placeFor(site, content, entry.page.path ?? '');
  const { previous, next } = neighbours(space.entries, entry.page.id);
  const link = (e?: PageEntry) => {
    const href = e ? space.hrefOf(e.page) : undefined;
    return e && href ? { title: e.page.title, href } : undefined;
  };
  const crumbs: Crumb[] = [
    ...(place.section && site.structure.length > 1 ? [{ title: place.section.title, href: `${place.section.basePath}/` }] : []),
    ...entry.ancestors.map((a) => ({ title: a.title, href: space.hrefOf(a) })),
  ];
  const href = space.hrefOf(entry.page) ?? `${content.basePath}/`;
  const hasMath = doc ? JSON.stringify(doc).includes('math"') : false;
  const layout = pageLayoutOf(entry.page, ctx);
  const pagination = layout.pagination && brandOf(site, content.siteSpaceId).pagination;
  return renderShell({
    place,
    nav: navigationTree(space.tree),
    showNav: layout.nav,
    wide: layout.wide,
    banner: layout.cover?.size === 'full' ? layout.cover.html : undefined,
    hrefOf: (p) => space.hrefOf(p),
    currentPageId: entry.page.id,
    title: entry.page.title,
    description: entry.page.description,
    canonicalUrl: `${origin}${href}`,
    markdownUrl: `${content.basePath}/${entry.page.path ?? ''}.md`,
    noindex: site.visibility !== 'public' || entry.noRobotsIndex,
    hasMath,
    toc: layout.outline ? rendered.headings : undefined,
    main: pageMain({
      title: entry.page.title,
      emoji: entry.page.emoji,
      description: layout.description ? entry.page.description : undefined,
      showTitle: layout.title,
      cover: layout.cover?.size === 'hero' ? layout.cover.html : undefined,
      crumbs,
      html: rendered.html,
      previous: pagination ? link(previous) : undefined,
      next: pagination ? link(next) : undefined,
    }),
  });
}

/** A document page of a site in GitBook Markdown, with absolute links. */
export async function renderPageMarkdown(input: {
  source: ReaderSource;
  content: PublishedContent;
  site: SiteView;
  space: SpaceView;
  entry: PageEntry;
  origin: string;
}): Promise<string> {
  const { source, content, site, space, entry, origin } = input;
  const doc = await source.document(content.access, entry.page.id);
  const ctx = await renderContextFor(source, content, site, space, doc, origin);
  return pageMarkdown(entry.page, doc, ctx);
}

/** The site chrome around a message (a 404 inside a site, search results). */
export function messagePage(input: { site: SiteView; content: PublishedContent; space?: SpaceView; title: string; main: string; noindex?: boolean }): string {
  const { site, content, space } = input;
  return renderShell({
    place: placeFor(site, content, ''),
    nav: space ? navigationTree(space.tree) : [],
    hrefOf: (p) => space?.hrefOf(p),
    title: input.title,
    noindex: input.noindex ?? true,
    hasMath: false,
    main: input.main,
  });
}
