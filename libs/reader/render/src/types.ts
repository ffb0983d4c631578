import type { ElementContent } from 'hast';
import type { ContentRef, Document, DocumentBlock, DocumentFragment, DocumentInline, DocumentNode, DocumentText, LayoutOptions } from '@bindery/shared/markdown';
import type { RevisionFile } from '@bindery/shared/pages';

export type { ContentRef, Document, DocumentBlock, DocumentFragment, DocumentInline, DocumentNode, DocumentText };

/** A page of a revision's tree and a file of a revision: the official shapes, declared once for every reader of pages. */
export type { RevisionPage as PageNode, RevisionFile as FileNode } from '@bindery/shared/pages';

/** Which parts of a page show, and how wide it is (the official RevisionPageLayoutOptions; absent fields take GitBook's defaults). */
export type PageLayoutOptions = Partial<LayoutOptions>;
export type { PageCover } from '@bindery/shared/pages';
/** What a document links to, as the reader shows it. */
export interface LinkTarget {
  href: string;
  /** a title to show for content references and mentions (a page's title, a space's title) */
  title?: string;
  emoji?: string;
}

/** A file as the reader links it: the file's record and where the reader serves it. */
export interface FileTarget extends Omit<RevisionFile, 'downloadURL'> {
  url: string;
}

/**
 * What rendering needs from the world around a document. Every function may answer undefined: the
 * node is then shown without its link (as text), or as a visible placeholder when it has no text.
 */
export interface RenderContext {
  /** the URL of a content reference (page, anchor, url, space, …) */
  link(ref: ContentRef): LinkTarget | undefined;
  /** a file of the revision, with the URL the reader serves it at */
  file(fileId: string): FileTarget | undefined;
  /** the document of a reusable content, to show in place */
  reusableContent?(ref: ContentRef): Document | undefined;
  /**
   * Whether an `if` block's expression holds for this reader (adaptive content). Without an
   * evaluator, or when it answers undefined, the block is left out: conditional content is shown
   * only to readers it is known to be meant for.
   */
  condition?(expression: string): boolean | undefined;
  /** links to other sites open in a new tab (`target="_blank"`, always with `rel="noopener"`): the site's externalLinks setting */
  externalLinksInNewTab?: boolean;
  /**
   * An API block (`openapi-operation`, `swagger`, `openapi-webhook`, `openapi-schemas`) rendered from
   * the spec it names, when the site may show that spec (an element, or its HTML as a raw node);
   * otherwise the block is a note.
   */
  apiReference?(block: DocumentBlock): ElementContent | undefined;
}

/** A heading of the page, for its table of contents. */
export interface Heading {
  id: string;
  /** 1, 2 or 3: the document's heading-1/2/3 (shown as h2/h3/h4 under the page title's h1) */
  level: number;
  text: string;
}
