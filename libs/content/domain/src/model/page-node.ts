import { type ContentRef, LAYOUT_DEFAULTS, type LayoutOptions } from '@bindery/shared/markdown';
import type { PageCover, PageType as RevisionPageType } from '@bindery/shared/pages';

export type { PageCover };

/** The kinds of page a revision holds (computed pages are produced by integrations, which are not hosted here). */
export type PageType = Exclude<RevisionPageType, 'computed'>;

/** The official RevisionPageLayoutOptions (their one home is the Markdown library, which reads them from front matter). */
export type PageLayout = LayoutOptions;

export const DEFAULT_LAYOUT: PageLayout = LAYOUT_DEFAULTS;

/**
 * One version of one page, stored once by content address and shared by every revision in which the
 * page is unchanged. Children are listed by page id, so editing a child never rewrites its parent;
 * `refs` are the references its document makes, extracted when the version is written.
 */
export interface PageNode {
  id: string;
  type: PageType;
  title: string;
  slug: string;
  /** the parent page, null at the top of the tree */
  parent: string | null;
  children: string[];
  emoji?: string;
  icon?: string;
  description?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  condition?: string;
  layout?: Partial<PageLayout>;
  cover?: PageCover;
  /** document pages: the address of the document record (absent = empty document) */
  document?: string;
  /** link pages */
  target?: ContentRef;
  refs?: ContentRef[];
  createdAt: string;
  updatedAt: string;
}

/** The top of a page tree: the ordered root pages. Stored under ROOT_KEY in the page map. */
export interface RootNode {
  children: string[];
}

export const ROOT_KEY = '';

export const KIND_OF: Record<PageType, string> = { document: 'sheet', group: 'group', link: 'link' };

/** A stored file of a revision; the bytes live in the blob store under `blobId`. */
export interface FileNode {
  id: string;
  name: string;
  contentType: string;
  size: number;
  dimensions?: { width: number; height: number };
  blobId: string;
  sha256: string;
}
