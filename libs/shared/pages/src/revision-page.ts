import type { ContentRef, Document, LayoutOptions } from '@bindery/shared/markdown';

/** The kinds of page (the official RevisionPageType): a closed union. Content stores the first three. */
export type PageType = 'document' | 'group' | 'link' | 'computed';

/** The official RevisionPageDocumentCover; `height` is Git Sync's front matter `coverHeight`. */
export interface PageCover {
  ref?: ContentRef;
  refDark?: ContentRef;
  yPos: number;
  height?: number;
}

/**
 * A page of a revision in the official RevisionPage shape, the one declaration every reader of pages
 * uses (the gateway's answers, the published reader, search, site redirects, Git Sync). Which fields a
 * page has follows its `type`: document and group pages have `slug`, `path` and `pages`; document pages
 * their layout, cover and document (or Markdown); link pages their `target`. `urls` is the gateway's.
 */
export interface RevisionPage {
  id: string;
  type: PageType;
  /** the deprecated `kind`: "sheet" | "group" | "link" */
  kind?: string;
  title: string;
  /** the title shown in navigation, when it differs from `title` */
  linkTitle?: string;
  emoji?: string;
  icon?: string;
  createdAt?: string;
  updatedAt?: string;
  condition?: string;
  hidden?: boolean;
  slug?: string;
  path?: string;
  pages?: RevisionPage[];
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  description?: string;
  layout?: LayoutOptions;
  cover?: PageCover;
  tags?: unknown[];
  documentId?: string;
  document?: Document;
  markdown?: string;
  /** link pages: where they lead */
  target?: ContentRef;
  href?: string;
  /** computed pages: their source */
  computed?: { type: string };
  urls?: { app: string };
}

/** The official RevisionFile; content answers `downloadURL` relative to the gateway's public address. */
export interface RevisionFile {
  id: string;
  name: string;
  contentType: string;
  size: number;
  dimensions?: { width: number; height: number };
  downloadURL: string;
}

/** The official RevisionReusableContent: `document` is the id of its document. */
export interface RevisionReusableContent {
  id: string;
  title: string;
  document?: string;
  git?: { oid: string; path: string };
}

/** A link page's destination when it is a URL (the official ContentRefURL), undefined otherwise. */
export function linkUrl(page: RevisionPage): string | undefined {
  return page.target?.kind === 'url' && typeof page.target.url === 'string' ? page.target.url : undefined;
}

/** Every page of a tree (official pages or content's page messages), depth first in order, each with its parent (undefined at the top). */
export function* walkPages<P extends { pages?: readonly P[] }>(pages: readonly P[], parent?: P): Generator<{ page: P; parent?: P }> {
  for (const page of pages) {
    yield { page, parent };
    yield* walkPages(page.pages ?? [], page);
  }
}
