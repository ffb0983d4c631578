import { toHtml } from 'hast-util-to-html';
import type { Document, Heading, RenderContext } from './types';
import { DocumentRenderer } from './blocks';
import { Child, root } from './hast';

export interface RenderedDocument {
  /** the document's HTML (a fragment: blocks only, no page chrome) */
  html: string;
  /** its headings in order, with the ids the HTML gives them */
  headings: Heading[];
}

/** Serializes hast; raw nodes (KaTeX's escaped output) pass through as they are. */
export function hastToHtml(nodes: Child[]): string {
  return toHtml(root(nodes), { allowDangerousHtml: true, characterReferences: { useNamedReferences: false } });
}

/**
 * A GitBook document as HTML: every block and inline type of the content model (docs/reader.md has
 * the table), a visible placeholder for a type the reader does not know. Pure: links, files and
 * reusable contents come from `ctx`.
 */
export function renderDocument(doc: Document, ctx: RenderContext): RenderedDocument {
  const renderer = new DocumentRenderer(safeLinks(ctx));
  const nodes = renderer.document(doc);
  return { html: hastToHtml(nodes), headings: renderer.headings };
}

/** Only web, mail and relative destinations become links: `javascript:`, `data:` and the like never do. */
export function isSafeHref(href: string): boolean {
  const scheme = /^\s*([a-z][a-z0-9+.-]*):/i.exec(href)?.[1]?.toLowerCase();
  return scheme === undefined || scheme === 'http' || scheme === 'https' || scheme === 'mailto';
}

export function safeLinks(ctx: RenderContext): RenderContext {
  return {
    ...ctx,
    link(ref) {
      const target = ctx.link(ref);
      return target && isSafeHref(target.href) ? target : undefined;
    },
  };
}
