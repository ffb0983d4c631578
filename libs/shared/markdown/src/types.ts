/** Shapes of GitBook's `JSONDocument` (spec schemas `Document*`), kept loose: the spec is the oracle, tests validate against it. */

export interface DocumentMark {
  object: 'mark';
  type: string;
  data?: Record<string, unknown>;
}

export interface DocumentLeaf {
  object: 'leaf';
  text: string;
  marks: DocumentMark[];
}

export interface DocumentText {
  object: 'text';
  key?: string;
  leaves: DocumentLeaf[];
}

export interface DocumentFragment {
  object: 'fragment';
  key?: string;
  fragment: string;
  type?: string;
  nodes: DocumentBlock[];
}

export interface DocumentBlock {
  object: 'block';
  type: string;
  key?: string;
  data: Record<string, unknown>;
  nodes?: DocumentNode[];
  fragments?: DocumentFragment[];
  isVoid?: boolean;
  meta?: Record<string, unknown>;
}

export interface DocumentInline {
  object: 'inline';
  type: string;
  key?: string;
  data: Record<string, unknown>;
  nodes?: DocumentNode[];
  fragments?: DocumentFragment[];
  isVoid?: boolean;
}

export type DocumentNode = DocumentBlock | DocumentInline | DocumentText;

export type Document = { object: 'document'; data: Record<string, unknown>; nodes: DocumentNode[] };

export type ContentRef =
  | { kind: 'page'; page: string }
  | { kind: 'anchor'; anchor: string; page?: string }
  | { kind: 'url'; url: string }
  | { kind: 'file'; file: string }
  | { kind: string; [k: string]: unknown };

/** A reference a resolver gave, with the destination as the Markdown wrote it. */
export interface Written {
  ref: ContentRef;
  href: string;
}

export interface ToDocumentOptions {
  /** Internal link destination (anything that is not an absolute URL such as http:, https:, mailto:, and not a bare #anchor).
   *  Returns the reference it points to, or null when it resolves to nothing (the link then becomes plain text: its children are kept, the link node dropped). Default: every internal link → null. */
  resolveLink?(href: string): ContentRef | null;
  /** Image / file source that is not an absolute URL (e.g. `.gitbook/assets/x.png`, `./logo-ref`, `/files/<id>`). Returns a file reference or null (then: an image becomes a url ref with the src as written; a {% file %} block is dropped). Default: null. */
  resolveFile?(src: string): { kind: 'file'; file: string } | null;
  /** Path of a `{% include "<path>" %}` line (reusable content, e.g. `../.gitbook/includes/x.md`). Returns the reusable content it names (`{kind: 'reusable-content', reusableContent}`), or null: the line then stays text as written. Default: null. */
  resolveReusableContent?(path: string): ContentRef | null;
}

export interface ToMarkdownOptions {
  /** Markdown destination for a reference (page/anchor/url/file/…); default: url refs → the url, page → `/pages/<id>`, anchor → `#<anchor>` (with page: `/pages/<id>#<anchor>`), file → `/files/<id>`. */
  hrefOf?(ref: ContentRef): string;
  title?: string;
  frontmatter?: PageFrontmatter;
}

export interface VisibleFlag {
  visible?: boolean;
}

/** Page layout as Git Sync writes it in front matter (`layout.cover.visible`, `layout.title.visible`, …). */
export interface PageLayout {
  width?: 'default' | 'wide';
  cover?: { visible?: boolean; size?: 'hero' | 'full' | 'background'; mask?: 'none' | 'radial' };
  title?: VisibleFlag;
  description?: VisibleFlag;
  tableOfContents?: VisibleFlag;
  outline?: VisibleFlag;
  pagination?: VisibleFlag;
  metadata?: VisibleFlag;
  tags?: VisibleFlag;
  actions?: VisibleFlag;
}

export interface PageFrontmatter {
  description?: string;
  icon?: string;
  emoji?: string;
  cover?: string;
  coverY?: number;
  coverHeight?: number;
  layout?: PageLayout;
  /** `layout: landing`: a preset named instead of options (kept in the file; content has no field for it) */
  layoutPreset?: 'docs' | 'editorial' | 'landing';
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
}

export interface ParsedMarkdown {
  document: Document;
  /** the page fields read from YAML front matter: description, icon, emoji, cover, coverY, coverHeight, layout, hidden, noIndex, noRobotsIndex (typed, validated) */
  frontmatter: PageFrontmatter;
  /** text of the first top-level `# H1` when the Markdown starts with one (it is then not part of the document) */
  title?: string;
}

/** Thrown for Markdown the converter refuses (invalid front matter); the message names the field and the problem. */
export class MarkdownInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MarkdownInputError';
  }
}
