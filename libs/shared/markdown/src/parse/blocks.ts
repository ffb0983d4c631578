import type { Heading, List, Paragraph, RootContent } from 'mdast';
import { groupBlocks, type BlockItem } from '../liquid-blocks';
import { block, fragment, paragraph } from '../nodes';
import { imageRef } from '../refs';
import type { DocumentBlock } from '../types';
import { convertGroup } from './containers';
import { codeBlock } from './simple-blocks';
import { sourceOf, type ParseContext } from './context';
import { fit } from './fit';
import { includeBlock } from './include';
import { convertInlines } from './inlines';
import { gridTable } from './tables';
import { headingAnchor, htmlBlock } from './html-blocks';
import { keepSource } from '../verbatim';

export function convertBlocks(children: RootContent[], ctx: ParseContext): DocumentBlock[] {
  return convertItems(groupBlocks(children, ctx.source), ctx);
}

export function convertItems(items: BlockItem[], ctx: ParseContext): DocumentBlock[] {
  return items.flatMap((item) => (item.type === 'group' ? convertGroup(item, ctx, convertItems) : convertNode(item, ctx)));
}

function convertNode(node: RootContent, ctx: ParseContext): DocumentBlock[] {
  switch (node.type) {
    case 'heading':
      return [heading(node, ctx)];
    case 'paragraph':
      return includeBlock(node, ctx) ?? [paragraphBlock(node, ctx)];
    case 'list':
      return [list(node, ctx)];
    case 'blockquote':
      return [block('blockquote', {}, fit('blockquote', convertBlocks(node.children, ctx)))];
    case 'code':
      return [codeBlock(node)];
    case 'math':
      return [block('math', { formula: node.value })];
    case 'thematicBreak':
      return [block('divider')];
    case 'table':
      return [gridTable(node, ctx)];
    case 'html':
      return htmlBlock(node, ctx);
    default:
      // definitions, footnote definitions and front matter carry no block of their own
      return [];
  }
}

/** `#`/`##` → heading-1, `###` → heading-2, deeper → heading-3 (Git Sync writes the editor's H1–H3 as `##`–`####`). */
function heading(node: Heading, ctx: ParseContext): DocumentBlock {
  const type = node.depth <= 2 ? 'heading-1' : node.depth === 3 ? 'heading-2' : 'heading-3';
  const { children, id } = headingAnchor(node.children);
  return block(type, id ? { id } : {}, convertInlines(children, ctx));
}

function paragraphBlock(node: Paragraph, ctx: ParseContext): DocumentBlock {
  const visible = node.children.filter((c) => !(c.type === 'text' && !c.value.trim()));
  if (visible.length && visible.every((c) => c.type === 'image' || (c.type === 'imageReference' && ctx.definitions.has(c.identifier)))) {
    const images = visible.map((c) => {
      const src = c.type === 'image' ? c.url : ctx.definitions.get((c as { identifier: string }).identifier)!.url;
      return imageBlock(src, (c as { alt?: string | null }).alt ?? '', undefined, [], ctx);
    });
    return block('images', {}, images);
  }
  if (visible.length === 1 && visible[0].type === 'inlineMath' && sourceOf(visible[0], ctx).startsWith('$$')) return block('math', { formula: visible[0].value });
  const dropped = ctx.dropped.count;
  const written = ctx.written.length;
  const nodes = convertInlines(node.children, ctx);
  // Git Sync ends a block with `\` when its text ends with a line break; CommonMark reads a literal backslash
  const last = nodes[nodes.length - 1];
  if (last?.object === 'text' && /(^|[^\\])(\\\\)*\\$/.test(sourceOf(node, ctx).trimEnd())) {
    const tail = last.leaves[last.leaves.length - 1];
    if (tail.text.endsWith('\\')) tail.text = tail.text.slice(0, -1) + '\n';
  }
  return ctx.dropped.count > dropped ? keepSource(paragraph(nodes), unprefixed(node, ctx), ctx.written.slice(written)) : paragraph(nodes);
}

/** A node's source without the container prefix (list indent, `>`) its continuation lines carry. */
function unprefixed(node: Paragraph, ctx: ParseContext): string {
  const width = (node.position?.start.column ?? 1) - 1;
  return sourceOf(node, ctx)
    .split('\n')
    .map((line, i) => (i && width ? line.replace(new RegExp(`^[ \\t>]{0,${width}}`), '') : line))
    .join('\n');
}

function imageBlock(src: string, alt: string, width: number | undefined, caption: DocumentBlock[], ctx: ParseContext): DocumentBlock {
  const data: Record<string, unknown> = { ref: imageRef(src, ctx.options) };
  if (alt) data.alt = alt;
  if (width !== undefined) data.width = width;
  return { ...block('image', data), fragments: caption.length ? [fragment('caption', caption)] : [] };
}

function list(node: List, ctx: ParseContext): DocumentBlock {
  const tasks = node.children.some((item) => typeof item.checked === 'boolean');
  const type = tasks ? 'list-tasks' : node.ordered ? 'list-ordered' : 'list-unordered';
  const data = node.ordered && !tasks && typeof node.start === 'number' && node.start !== 1 ? { start: node.start } : {};
  const items = node.children.map((item) => {
    const children = fit('list-item', convertBlocks(item.children, ctx));
    return block('list-item', tasks ? { checked: item.checked === true } : {}, children.length ? children : [paragraph([])]);
  });
  return block(type, data, items);
}
