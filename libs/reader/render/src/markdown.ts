import { documentToMarkdown } from '@bindery/shared/markdown';
import type { ContentRef, Document, DocumentBlock, DocumentNode, PageNode, RenderContext } from './types';

/**
 * The document as the reader shows it, before it is written as Markdown: `if` blocks kept only when
 * their condition holds (as in the HTML), reusable contents put in place.
 */
export function documentForReader(doc: Document, ctx: RenderContext, depth = 0): Document {
  const visit = (nodes: DocumentNode[] | undefined): DocumentNode[] =>
    (nodes ?? []).flatMap((node): DocumentNode[] => {
      if (node.object !== 'block') return [node];
      if (node.type === 'if') return ctx.condition?.(String(node.data?.expression ?? '')) === true ? visit(node.nodes) : [];
      if (node.type === 'reusable-content' && depth < 3) {
        const reused = ctx.reusableContent?.(node.data?.ref as ContentRef);
        if (reused) return documentForReader(reused, ctx, depth + 1).nodes;
      }
      const copy: DocumentBlock = { ...node };
      if (node.nodes) copy.nodes = visit(node.nodes);
      if (node.fragments) copy.fragments = node.fragments.map((f) => ({ ...f, nodes: visit(f.nodes) as DocumentBlock[] }));
      return [copy];
    });
  return { ...doc, nodes: visit(doc.nodes) };
}

/**
 * A page in GitBook Markdown (`<page>.md`, `Accept: text/markdown`, llms-full.txt): its title as
 * `# H1`, its description as front matter, and links pointing at the reader's URLs (files at the
 * URLs the reader serves them from). Written by the workspace's Markdown printer
 * (@bindery/shared/markdown), the same one Git Sync's format comes from.
 */
export function pageMarkdown(page: PageNode, doc: Document | undefined, ctx: RenderContext): string {
  const hrefOf = (ref: ContentRef): string => {
    if (ref.kind === 'file' && typeof ref.file === 'string') return ctx.file(ref.file)?.url ?? '';
    return ctx.link(ref)?.href ?? '';
  };
  const body = doc ?? { object: 'document' as const, data: {}, nodes: [] };
  return documentToMarkdown(documentForReader(body, ctx), {
    hrefOf,
    title: page.title,
    frontmatter: page.description ? { description: page.description } : undefined,
  });
}
