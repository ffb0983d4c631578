import { Document, documentToMarkdown } from '@bindery/shared/markdown';
import { DEFAULT_LAYOUT, FileNode, KIND_OF, PageNode, ReusableContentNode, RootNode } from '@bindery/content/domain';
import type { RevisionRecord } from '@bindery/content/data-access';

/**
 * The official shapes of a revision's content (Revision, RevisionPage, RevisionFile), without the
 * `urls` the gateway adds from its public and app addresses.
 */
export const EMPTY_DOCUMENT: Document = { object: 'document', data: {}, nodes: [] };

export type PageFormat = 'document' | 'markdown';

export interface PageJsonOptions {
  path: string;
  /** the page's document (document pages) */
  document?: Document;
  format?: PageFormat;
  pages?: unknown[];
}

/** One page in the official RevisionPage shape; document pages carry their document (or Markdown). */
export function pageJson(page: PageNode, options: PageJsonOptions): Record<string, unknown> {
  const common = {
    id: page.id,
    title: page.title,
    kind: KIND_OF[page.type],
    type: page.type,
    ...(page.emoji ? { emoji: page.emoji } : {}),
    ...(page.icon ? { icon: page.icon } : {}),
    createdAt: page.createdAt,
    updatedAt: page.updatedAt,
    ...(page.condition ? { condition: page.condition } : {}),
  };
  if (page.type === 'link') return { ...common, target: page.target, ...(page.hidden !== undefined ? { hidden: page.hidden } : {}) };
  const flags = {
    ...(page.hidden !== undefined ? { hidden: page.hidden } : {}),
    ...(page.noIndex !== undefined ? { noIndex: page.noIndex } : {}),
    ...(page.noRobotsIndex !== undefined ? { noRobotsIndex: page.noRobotsIndex } : {}),
  };
  const placed = { slug: page.slug, path: options.path, pages: options.pages ?? [] };
  if (page.type === 'group') return { ...common, ...placed, ...flags };
  const document = options.document ?? EMPTY_DOCUMENT;
  const body = options.format === 'markdown' ? { markdown: documentToMarkdown(document) } : { document };
  return {
    ...common,
    ...placed,
    ...(page.description !== undefined ? { description: page.description } : {}),
    ...flags,
    layout: { ...DEFAULT_LAYOUT, ...(page.layout ?? {}) },
    ...(page.cover ? { cover: page.cover } : {}),
    tags: [],
    ...(page.document ? { documentId: page.document } : {}),
    ...body,
  };
}

/** The whole page tree, in order, each page with its path and (document pages) its document. */
export function pageTreeJson(root: RootNode, pages: Map<string, PageNode>, documents: Map<string, Document>): unknown[] {
  const build = (ids: string[], prefix: string): unknown[] =>
    ids.flatMap((id) => {
      const page = pages.get(id);
      if (!page) return [];
      const path = prefix ? `${prefix}/${page.slug}` : page.slug;
      const document = page.document ? documents.get(page.document) : undefined;
      return [pageJson(page, { path, document, pages: page.type === 'link' ? undefined : build(page.children, path) })];
    });
  return build(root.children, '');
}

/** The official RevisionFile; `downloadURL` is relative to the gateway's public address. */
export function fileJson(file: FileNode, downloadURL: string): Record<string, unknown> {
  return {
    id: file.id,
    name: file.name,
    contentType: file.contentType,
    size: file.size,
    ...(file.dimensions ? { dimensions: file.dimensions } : {}),
    downloadURL,
  };
}

/**
 * The official RevisionReusableContent: `document` is the id of its document (read with the
 * reusable content's `/document`); `git` (GitSyncBlob) when the blob id of its file is known.
 */
export function reusableContentJson(content: ReusableContentNode): Record<string, unknown> {
  return {
    id: content.id,
    title: content.title,
    ...(content.document ? { document: content.document } : {}),
    ...(content.git?.oid ? { git: { oid: content.git.oid, path: content.git.path } } : {}),
  };
}

/** The official Revision (its `type` variant), with its pages and files. */
export function revisionJson(record: RevisionRecord, pages: unknown[], files: unknown[], metadata: boolean): Record<string, unknown> {
  return {
    object: 'revision',
    id: record._id,
    parents: record.parents,
    type: record.type,
    pages,
    files,
    reusableContents: (record.reusableContents ?? []).map(reusableContentJson),
    tags: [],
    variables: record.variables ?? {},
    createdAt: record.createdAt,
    ...(metadata && record.git ? { git: record.git } : {}),
    ...(record.mergedFrom ? { mergedFrom: record.mergedFrom } : {}),
  };
}
