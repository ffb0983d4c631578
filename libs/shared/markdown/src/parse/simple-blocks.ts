import type { Code } from 'mdast';
import { block, paragraph, text } from '../nodes';
import { parseMarkdown } from '../remark';
import type { DocumentBlock } from '../types';
import type { ParseContext } from './context';
import { keepSource } from '../verbatim';
import { convertInlines } from './inlines';

/** Blocks that hold no other blocks: code, and the one-paragraph snippets of captions and summaries. */

export function codeBlock(node: Code, extra: Record<string, unknown> = {}): DocumentBlock {
  const data: Record<string, unknown> = node.lang ? { syntax: node.lang, ...extra } : { ...extra };
  return block(
    'code',
    data,
    node.value.split('\n').map((line) => block('code-line', {}, [text(line)])),
  );
}

/** `captionParagraph` for a snippet printed back on its own (a cell): HTML no node holds keeps the snippet as written. */
export function keptParagraph(snippet: string, ctx: ParseContext): DocumentBlock {
  const dropped = ctx.dropped.count;
  const written = ctx.written.length;
  const p = captionParagraph(snippet, ctx);
  return ctx.dropped.count > dropped ? keepSource(p, snippet, ctx.written.slice(written)) : p;
}

/** Inline Markdown/HTML held in an HTML attribute-free snippet (captions, summaries) → one paragraph. */
export function captionParagraph(snippet: string, ctx: ParseContext): DocumentBlock {
  const root = parseMarkdown(snippet);
  const inlines = root.children.flatMap((c) => (c.type === 'paragraph' ? c.children : c.type === 'html' ? [{ type: 'html' as const, value: c.value }] : []));
  return paragraph(convertInlines(inlines, { ...ctx, source: snippet }));
}
