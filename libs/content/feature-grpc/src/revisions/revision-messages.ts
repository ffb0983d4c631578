import { type ContentRef, Document, documentToMarkdown } from '@bindery/shared/markdown';
import { contentRevisionsV1 as pb, documentToMessage, type JsonObject } from '@bindery/shared/contracts';
import { DEFAULT_LAYOUT, FileNode, PageCover, PageNode, ReusableContentNode, RootNode } from '@bindery/content/domain';
import type { RevisionRecord } from '@bindery/content/data-access';

/**
 * The one mapping from content's stored records to its revision messages (Revision, RevisionPage,
 * RevisionFile, ReusableContent). Their official JSON is libs/content/client's mapping of these messages.
 */
export const EMPTY_DOCUMENT: Document = { object: 'document', data: {}, nodes: [] };

export type PageFormat = 'document' | 'markdown';

export interface PageMessageOptions {
  path: string;
  /** the page's document (document pages) */
  document?: Document;
  format?: PageFormat;
  pages?: pb.RevisionPage[];
}

/** A ContentRef message: the reference's kind and its string fields. */
export function contentRefMessage(ref: ContentRef): pb.ContentRef {
  const out: pb.ContentRef = { kind: ref.kind };
  for (const key of ['page', 'anchor', 'url', 'file', 'space', 'user', 'collection', 'reusableContent', 'spec'] as const) {
    const value = (ref as Record<string, unknown>)[key];
    if (typeof value === 'string') out[key] = value;
  }
  return out;
}

function coverMessage(cover: PageCover): pb.PageCover {
  return {
    ...(cover.ref ? { ref: contentRefMessage(cover.ref) } : {}),
    ...(cover.refDark ? { refDark: contentRefMessage(cover.refDark) } : {}),
    yPos: cover.yPos,
    ...(cover.height !== undefined ? { height: cover.height } : {}),
  };
}

/** One page; document pages carry their document (or Markdown), the others their kind's fields. */
export function pageMessage(page: PageNode, options: PageMessageOptions): pb.RevisionPage {
  const placed = page.type === 'link' ? { slug: '', path: '', pages: [] } : { slug: page.slug, path: options.path, pages: options.pages ?? [] };
  const out: pb.RevisionPage = {
    id: page.id,
    title: page.title,
    emoji: page.emoji || undefined,
    icon: page.icon || undefined,
    createdAt: page.createdAt,
    updatedAt: page.updatedAt,
    condition: page.condition || undefined,
    hidden: page.hidden,
    ...placed,
    noIndex: page.type === 'link' ? undefined : page.noIndex,
    noRobotsIndex: page.type === 'link' ? undefined : page.noRobotsIndex,
  };
  if (page.type === 'link') return { ...out, link: { target: page.target ? contentRefMessage(page.target) : undefined } };
  if (page.type === 'group') return { ...out, group: {} };
  const document = options.document ?? EMPTY_DOCUMENT;
  return {
    ...out,
    document: {
      description: page.description,
      layout: { ...DEFAULT_LAYOUT, ...(page.layout ?? {}) },
      cover: page.cover ? coverMessage(page.cover) : undefined,
      documentId: page.document,
      ...(options.format === 'markdown' ? { markdown: documentToMarkdown(document) } : { document: documentToMessage(document as unknown as JsonObject) }),
    },
  };
}

/** The whole page tree, in order, each page with its path and (document pages) its document. */
export function pageTreeMessages(root: RootNode, pages: Map<string, PageNode>, documents: Map<string, Document>): pb.RevisionPage[] {
  const build = (ids: string[], prefix: string): pb.RevisionPage[] =>
    ids.flatMap((id) => {
      const page = pages.get(id);
      if (!page) return [];
      const path = prefix ? `${prefix}/${page.slug}` : page.slug;
      const document = page.document ? documents.get(page.document) : undefined;
      return [pageMessage(page, { path, document, pages: page.type === 'link' ? undefined : build(page.children, path) })];
    });
  return build(root.children, '');
}

/** One side of a changed field of a semantic change, by the field's name (see AttributeValue). */
export function attributeValue(field: string, value: unknown): pb.AttributeValue {
  if (field === 'cover') return { cover: coverMessage(value as PageCover) };
  if (field === 'layout') return { layout: value as pb.PageLayout };
  if (field === 'target') return { ref: contentRefMessage(value as ContentRef) };
  if (field === 'dimensions') return { dimensions: value as pb.ImageDimensions };
  if (typeof value === 'number') return { number: value };
  return { text: String(value) };
}

/** `{before?, after?}` of a changed field (an absent value is left out of its side). */
export function changeAttribute(field: string, before: unknown, after: unknown): pb.ChangeAttribute {
  return {
    before: before !== undefined ? attributeValue(field, before) : undefined,
    after: after !== undefined ? attributeValue(field, after) : undefined,
  };
}

/** A file; `downloadURL` is relative to the gateway's public address. */
export function fileMessage(file: FileNode, downloadURL: string): pb.RevisionFile {
  return {
    id: file.id,
    name: file.name,
    contentType: file.contentType,
    size: file.size,
    dimensions: file.dimensions ? { width: file.dimensions.width, height: file.dimensions.height } : undefined,
    downloadURL,
  };
}

/** A reusable content: `document` is the id of its document; `git` when the blob id of its file is known. */
export function reusableContentMessage(content: ReusableContentNode): pb.ReusableContent {
  return {
    id: content.id,
    title: content.title,
    document: content.document || undefined,
    git: content.git?.oid ? { oid: content.git.oid, path: content.git.path } : undefined,
  };
}

/** The revision (its `type` variant), with its pages and files. */
export function revisionMessage(record: RevisionRecord, pages: pb.RevisionPage[], files: pb.RevisionFile[], metadata: boolean): pb.Revision {
  const git = metadata ? record.git : undefined;
  return {
    id: record._id,
    parents: record.parents,
    type: record.type,
    pages,
    files,
    reusableContents: (record.reusableContents ?? []).map(reusableContentMessage),
    variables: record.variables ?? {},
    createdAt: record.createdAt,
    git: git ? { oid: git.oid, message: git.message, createdByService: git.createdByService, url: git.url, ref: git.ref } : undefined,
    mergedFrom: record.mergedFrom || undefined,
  };
}
