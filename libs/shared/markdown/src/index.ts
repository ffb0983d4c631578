/** GitBook-flavoured Markdown ⇄ GitBook `Document` JSON, built on unified/remark (see docs/markdown.md). */
export type {
  ContentRef,
  Document,
  DocumentBlock,
  DocumentFragment,
  DocumentInline,
  DocumentLeaf,
  DocumentMark,
  DocumentNode,
  DocumentText,
  PageFrontmatter,
  PageLayout,
  ParsedMarkdown,
  ToDocumentOptions,
  ToMarkdownOptions,
} from './types';
export { MarkdownInputError } from './types';
export { markdownToDocument, documentToMarkdown } from './convert';
export { referencesOf, plainTextOf } from './references';
export { LAYOUT_DEFAULTS, layoutOptionsOf, frontmatterLayoutOf, type LayoutOptions } from './layout-options';
