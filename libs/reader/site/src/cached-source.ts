import { createHash } from 'node:crypto';
import type { Document, FileNode, PageNode } from '@bindery/reader/render';
import type { ContentAccess, PublishedContent, ReaderSource, SiteView, Visitor } from './source';
import { PromiseCache } from './lru';

export interface CacheSettings {
  /**
   * How long a resolved URL and a site's published view are reused. A merge, an unpublished site
   * or a deactivated share key shows after at most this long (the reader's freshness bound); the
   * events of sites and content can drop entries sooner (invalidateSite / invalidateAll).
   */
  resolveTtlMs: number;
  /** how long a revision's file list (with its expiring download credentials) is reused */
  filesTtlMs: number;
  /** revisions whose page trees and documents are kept */
  maxRevisions: number;
  maxDocuments: number;
  maxResolutions: number;
}

export const DEFAULT_CACHE_SETTINGS: CacheSettings = { resolveTtlMs: 1000, filesTtlMs: 60_000, maxRevisions: 200, maxDocuments: 5000, maxResolutions: 10_000 };

/** A digest naming a secret in a cache key without holding it in the key. */
export const digest = (value: string): string => createHash('sha256').update(value).digest('base64url').slice(0, 22);

const visitorKey = (v: Visitor) => `${v.shareKey ? digest(v.shareKey) : '-'}.${v.visitorToken ? digest(v.visitorToken) : '-'}`;
const revisionKey = (a: ContentAccess) => `${a.spaceId}:${a.revisionId}`;

/**
 * A source whose answers are reused: what a revision holds (page tree, documents, reusable
 * contents) for as long as it is kept, since a revision never changes; resolutions and site views
 * for `resolveTtlMs`. A failed call is not remembered.
 */
export class CachedSource implements ReaderSource {
  private readonly resolutions: PromiseCache<PublishedContent | undefined>;
  private readonly sites: PromiseCache<SiteView>;
  private readonly spaceContents: PromiseCache<ContentAccess | undefined>;
  private readonly trees: PromiseCache<PageNode[]>;
  private readonly documents: PromiseCache<Document | undefined>;
  private readonly fileLists: PromiseCache<FileNode[]>;

  constructor(
    private readonly inner: ReaderSource,
    settings: Partial<CacheSettings> = {},
    clock: () => number = Date.now,
  ) {
    const s = { ...DEFAULT_CACHE_SETTINGS, ...settings };
    this.resolutions = new PromiseCache(s.maxResolutions, s.resolveTtlMs, clock);
    this.sites = new PromiseCache(s.maxResolutions, s.resolveTtlMs, clock);
    this.spaceContents = new PromiseCache(s.maxResolutions, s.resolveTtlMs, clock);
    this.trees = new PromiseCache(s.maxRevisions, Infinity, clock);
    this.documents = new PromiseCache(s.maxDocuments, Infinity, clock);
    this.fileLists = new PromiseCache(s.maxRevisions, s.filesTtlMs, clock);
  }

  resolve(url: string, visitor: Visitor): Promise<PublishedContent | undefined> {
    return this.resolutions.load(`${visitorKey(visitor)} ${url}`, () => this.inner.resolve(url, visitor));
  }

  site(content: PublishedContent, visitor: Visitor): Promise<SiteView> {
    return this.sites.load(`${content.siteId} ${visitorKey(visitor)}`, () => this.inner.site(content, visitor));
  }

  siteSpaceContent(content: PublishedContent, siteSpace: SiteSpaceViewLike, visitor: Visitor): Promise<ContentAccess | undefined> {
    return this.spaceContents.load(`${content.siteId} ${siteSpace.id} ${visitorKey(visitor)}`, () => this.inner.siteSpaceContent(content, siteSpace as never, visitor));
  }

  pages(access: ContentAccess): Promise<PageNode[]> {
    return this.trees.load(revisionKey(access), () => this.inner.pages(access));
  }

  document(access: ContentAccess, pageId: string): Promise<Document | undefined> {
    return this.documents.load(`${revisionKey(access)} ${pageId}`, () => this.inner.document(access, pageId));
  }

  files(access: ContentAccess): Promise<FileNode[]> {
    return this.fileLists.load(revisionKey(access), () => this.inner.files(access));
  }

  reusableContent(access: ContentAccess, id: string): Promise<Document | undefined> {
    return this.documents.load(`${revisionKey(access)} reusable:${id}`, () => this.inner.reusableContent(access, id));
  }

  openFile(access: ContentAccess, fileId: string) {
    return this.inner.openFile(access, fileId);
  }

  search(content: PublishedContent, query: string, visitor: Visitor) {
    return this.inner.search(content, query, visitor);
  }

  /** Drops what is known of a site (its resolutions and views): on its events. */
  invalidateSite(siteId: string): void {
    this.sites.deletePrefix(`${siteId} `);
    this.spaceContents.deletePrefix(`${siteId} `);
    // Resolutions are keyed by URL, not site: all of them go (they are reloaded at one call each).
    this.resolutions.clear();
  }

  /** Drops every resolution and view (a space's current revision moved: which sites show it is not known here). */
  invalidateAll(): void {
    this.resolutions.clear();
    this.sites.clear();
    this.spaceContents.clear();
  }
}

type SiteSpaceViewLike = { id: string };
