/** Test fixtures for the merge specs: revisions written as nested page specs, and a literal outline of a result. */
import type { Document, DocumentBlock } from '@bindery/shared/markdown';
import { contentHash } from '../model/content-hash';
import { FileNode, PageNode } from '../model/page-node';
import { MergeResult, RevisionSnapshot } from './merge-types';

export const T0 = '2024-01-01T00:00:00.000Z';

export function paragraph(text: string): DocumentBlock {
  return { object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] };
}

export function documentOf(texts: string[]): Document {
  return { object: 'document', data: {}, nodes: texts.map(paragraph) };
}

/** The texts of a document's paragraphs, in order. */
export function textsOf(document: Document | undefined): string[] {
  return (document?.nodes ?? []).map((block) =>
    ('nodes' in block && block.nodes ? block.nodes : []).map((n) => ('leaves' in n ? n.leaves.map((l) => l.text).join('') : '')).join(''),
  );
}

type Options = Partial<Omit<PageNode, 'id' | 'parent' | 'children' | 'document'>> & { blocks?: string[] };
export interface PageSpec {
  id: string;
  options: Options;
  children: PageSpec[];
}

/** A page: title defaults to the id in capitals, slug to the id; `blocks` are paragraph texts. */
export function p(id: string, options: Options = {}, ...children: PageSpec[]): PageSpec {
  return { id, options, children };
}

export function file(id: string, name = `${id}.png`): FileNode {
  return { id, name, contentType: 'image/png', size: 10, blobId: `blob-${id}`, sha256: `sha-${id}-${name}` };
}

/** A whole revision from nested specs (sibling order = list order). */
export function rev(top: PageSpec[], files: FileNode[] = []): RevisionSnapshot {
  const snapshot: RevisionSnapshot = { root: { children: top.map((s) => s.id) }, pages: new Map(), documents: new Map(), files: new Map(files.map((f) => [f.id, f])) };
  const add = (spec: PageSpec, parent: string | null) => {
    const { blocks, ...fields } = spec.options;
    const page: PageNode = {
      id: spec.id,
      type: 'document',
      title: spec.id.toUpperCase(),
      slug: spec.id,
      parent,
      children: spec.children.map((c) => c.id),
      createdAt: T0,
      updatedAt: T0,
      ...fields,
    };
    if (blocks?.length) {
      const document = documentOf(blocks);
      page.document = contentHash(document);
      page.refs = [];
      snapshot.documents.set(page.document, document);
    }
    snapshot.pages.set(spec.id, page);
    spec.children.forEach((child) => add(child, spec.id));
  };
  top.forEach((spec) => add(spec, null));
  return snapshot;
}

/** The document of a merged page: written by the merge, or already in ours. */
export function mergedDocument(result: MergeResult, ours: RevisionSnapshot, page: PageNode): Document | undefined {
  return page.document === undefined ? undefined : (result.documents.get(page.document) ?? ours.documents.get(page.document));
}

/** One line per page, indented by depth: `id "title" /slug emoji: block | block` (slug only when not the id, blocks only when any). */
export function outline(result: MergeResult, ours: RevisionSnapshot): string[] {
  const lines: string[] = [];
  const walk = (ids: string[], depth: number) => {
    for (const id of ids) {
      const page = result.pages.get(id)!;
      const slug = page.slug === id ? '' : ` /${page.slug}`;
      const texts = textsOf(mergedDocument(result, ours, page));
      lines.push(`${'  '.repeat(depth)}${id} "${page.title}"${slug}${page.emoji ? ' ' + page.emoji : ''}${texts.length ? ': ' + texts.join(' | ') : ''}`);
      walk(page.children, depth + 1);
    }
  };
  walk(result.root.children, 0);
  return lines;
}

/** The invariants of any clean merge: parents and children agree, and every document is reachable. */
export function expectConsistent(result: MergeResult, ours: RevisionSnapshot): void {
  const listed = [...result.root.children, ...[...result.pages.values()].flatMap((page) => page.children)];
  expect([...listed].sort()).toEqual([...result.pages.keys()].sort());
  for (const id of result.root.children) expect(result.pages.get(id)!.parent).toBeNull();
  for (const page of result.pages.values()) {
    for (const child of page.children) expect(result.pages.get(child)!.parent).toBe(page.id);
    if (page.document !== undefined) expect(mergedDocument(result, ours, page)).toBeDefined();
  }
}

/** Replaces a page's document with paragraphs of these texts (none: no document), as a writer at `now` would. */
export function setBlocks(s: RevisionSnapshot, id: string, texts: string[], now: string): void {
  const page: PageNode = { ...s.pages.get(id)!, updatedAt: now };
  delete page.document;
  delete page.refs;
  if (texts.length) {
    const document = documentOf(texts);
    page.document = contentHash(document);
    page.refs = [];
    s.documents.set(page.document, document);
  }
  s.pages.set(id, page);
}

/** The paragraph texts of a page's document. */
export const textsAt = (s: RevisionSnapshot, id: string) => {
  const hash = s.pages.get(id)!.document;
  return hash === undefined ? [] : textsOf(s.documents.get(hash));
};
