import { createHash } from 'node:crypto';
import type { ContentRef, DocumentBlock, Written } from './types';

/**
 * HTML that no document node holds (`<div>`, `<iframe>`, `<span style>`, …) is read for its text, so the document and
 * the published page show that text, never markup. The paragraph holding it keeps the Markdown it came from in
 * `meta.markdown`, with a digest of what it converted to: as long as the paragraph is unchanged, it is printed back
 * exactly as written; once edited, it is printed from its nodes like any other paragraph.
 */
export function keepSource(block: DocumentBlock, markdown: string, written: Written[]): DocumentBlock {
  // the pages and files it points to, with their destinations as written: if one moved, the kept Markdown is stale
  const refs = written.map(({ ref, href }) => ({ ref, href }));
  return { ...block, meta: refs.length ? { markdown, digest: digestOf(block), refs } : { markdown, digest: digestOf(block) } };
}

/** The Markdown a block was read from, when it still holds exactly what that Markdown converts to and its links still print the same. */
export function keptSource(block: DocumentBlock, hrefOf: (ref: ContentRef) => string): string | undefined {
  const meta = block.meta as { markdown?: unknown; digest?: unknown; refs?: unknown } | undefined;
  if (typeof meta?.markdown !== 'string' || meta.digest !== digestOf(block)) return undefined;
  const refs = Array.isArray(meta.refs) ? (meta.refs as Written[]) : [];
  return refs.every((r) => r && typeof r === 'object' && hrefOf(r.ref) === r.href) ? meta.markdown : undefined;
}

function digestOf(block: DocumentBlock): string {
  const content = JSON.stringify({ type: block.type, data: block.data, nodes: block.nodes, fragments: block.fragments }, (k, v) => (k === 'key' ? undefined : v));
  return createHash('sha1').update(content).digest('base64url').slice(0, 16);
}

const parsedSources = new WeakMap<DocumentBlock, { markdown: string; written: Written[] }>();

/**
 * The Markdown a block was read from, known while parsing only (never serialised): a block its container may not hold
 * (a `<figure>` in a list item) is fitted into an allowed one that keeps that source to print.
 */
export function withParsedSource<T extends DocumentBlock>(block: T, markdown: string, written: Written[]): T {
  parsedSources.set(block, { markdown, written });
  return block;
}

export function parsedSource(block: DocumentBlock): { markdown: string; written: Written[] } | undefined {
  return parsedSources.get(block);
}
