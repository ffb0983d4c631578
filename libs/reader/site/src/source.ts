import type { Document, FileNode, PageNode } from '@bindery/reader/render';

/**
 * Where the reader gets what it shows: the port between routing and rendering (pure, tested with an
 * in-memory source) and the services (sites' resolver and published structure, content's reads as
 * the site's audience: grpc-source.ts).
 */

/** What a visitor brings: a share link's key, a visitor JWT (never logged, never in a cache key). */
export interface Visitor {
  shareKey?: string;
  visitorToken?: string;
}

/** How the source reads one revision of a space for one audience (opaque to routing). */
export interface ContentAccess {
  spaceId: string;
  revisionId: string;
  /** the source's credential for this content (a site token): memory only */
  credential?: string;
}

/** A published URL resolved: the site, the site space and revision it shows, the page path in it. */
export interface PublishedContent {
  organizationId: string;
  siteId: string;
  siteSectionId?: string;
  siteSpaceId: string;
  spaceId: string;
  revisionId: string;
  /** the page path within the space ('' for its first page) */
  pathname: string;
  /** URL path of the site space's root, without a trailing slash ('' at the root of a host) */
  basePath: string;
  /** URL path of the site's root, without a trailing slash */
  siteBasePath: string;
  /** who this answer is for, as a cache-key part: 'public', 'share', or a digest of the visitor's claims */
  audience: string;
  /** the URL matched a redirect: go there instead */
  redirect?: string;
  /** with `redirect`: the URL is another form of the site's address, moved for good (301) */
  redirectPermanent?: boolean;
  access: ContentAccess;
}

export type Visibility = 'public' | 'unlisted' | 'share-link' | 'visitor-auth';

/** A site space (a variant) as the reader links it. */
export interface SiteSpaceView {
  id: string;
  title: string;
  spaceId: string;
  default: boolean;
  /** URL path of its root, without a trailing slash */
  basePath: string;
  /** its absolute published URL, when the source knows it (to resolve it for another audience) */
  url?: string;
  /** whether it shows only to visitors meeting a condition */
  conditional?: boolean;
}

export interface SectionView {
  id: string;
  title: string;
  description?: string;
  icon?: string;
  default: boolean;
  /** URL path of the section (its default site space's root), without a trailing slash */
  basePath: string;
  siteSpaces: SiteSpaceView[];
  conditional?: boolean;
}

export interface SectionGroupView {
  id: string;
  title: string;
  icon?: string;
  sections: SectionView[];
}

export type StructureItem = { kind: 'section'; section: SectionView } | { kind: 'group'; group: SectionGroupView };

/** A published site as one audience sees it (sections and site spaces whose condition fails are absent). */
/** A site's customization settings (the official SiteCustomizationSettings), as sites answers them. */
export type CustomizationSettings = Record<string, unknown>;

/** What the published read carries: the site's settings and those of each site space with overrides. */
export interface SiteCustomizations {
  site: CustomizationSettings;
  /** effective settings by site space id (only site spaces with overrides) */
  siteSpaces: Record<string, CustomizationSettings>;
  /** false while the site never set any: the reader then looks as it does without customization */
  custom: boolean;
}

export interface SiteView {
  id: string;
  organizationId: string;
  title: string;
  description?: string;
  visibility: Visibility;
  /** changes whenever anything the site's pages show about the site changes (a cache-key part) */
  version: string;
  /** URL path of the site's root, without a trailing slash */
  basePath: string;
  /** the site's absolute URL (canonical links, sitemaps), without a trailing slash */
  url: string;
  /** sections and section groups in order; empty when the site has no sections */
  structure: StructureItem[];
  /** the site spaces of a site without sections */
  siteSpaces: SiteSpaceView[];
  /** the site's customization and its site spaces' overrides (brand.ts); absent: none */
  customization?: SiteCustomizations;
}

/** A file's bytes as the source streams them. */
export interface FileBody {
  name: string;
  contentType: string;
  size: number;
  chunks: AsyncIterable<Uint8Array>;
  cancel(): void;
}

/** A search hit in the site. */
export interface SearchHit {
  title: string;
  /** URL path of the page (with an anchor for a section of it) */
  path: string;
  snippet?: string;
  /** where it is: the section or variant */
  where?: string;
}

export interface ReaderSource {
  /** The published content at `url` for this visitor; undefined when nothing is published there for them. */
  resolve(url: string, visitor: Visitor): Promise<PublishedContent | undefined>;
  /** The site of resolved content, as this visitor sees it. */
  site(content: PublishedContent, visitor: Visitor): Promise<SiteView>;
  /** The content of another site space of the same site, for this visitor (undefined: not theirs). */
  siteSpaceContent(content: PublishedContent, siteSpace: SiteSpaceView, visitor: Visitor): Promise<ContentAccess | undefined>;
  /** A revision's page tree (immutable for a revision). */
  pages(access: ContentAccess): Promise<PageNode[]>;
  /** A page's document (immutable for a revision). */
  document(access: ContentAccess, pageId: string): Promise<Document | undefined>;
  /** A revision's files (their records are immutable; download credentials may expire). */
  files(access: ContentAccess): Promise<FileNode[]>;
  /** A reusable content's document, when the source can read it. */
  reusableContent(access: ContentAccess, reusableContentId: string): Promise<Document | undefined>;
  /** A file's bytes. */
  openFile(access: ContentAccess, fileId: string): Promise<FileBody | undefined>;
  /** Site search, as this visitor may see it. */
  search(content: PublishedContent, query: string, visitor: Visitor): Promise<SearchHit[]>;
}
