import { slug } from 'github-slugger';
import type { Heading, Html, List, Paragraph, PhrasingContent, RootContent } from 'mdast';
import { htmlTag, innerOf, tagsNamed } from '../html';
import { isHtmlCode, readHtmlCode } from '../html-code';
import { groupBlocks, type BlockItem } from '../liquid-blocks';
import { block, fragment, paragraph, text } from '../nodes';
import { imageRef } from '../refs';
import { parseMarkdown } from '../remark';
import type { DocumentBlock } from '../types';
import { convertGroup } from './containers';
import { captionParagraph, codeBlock } from './simple-blocks';
import { sourceOf, type ParseContext } from './context';
import { fit } from './fit';
import { includeBlock } from './include';
import { convertInlines } from './inlines';
import { cardsTable, gridTable, htmlGridTable } from './tables';

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

/** Git Sync appends `<a href="#id" id="id"></a>` to a heading whose anchor differs from its text's slug. */
function headingAnchor(children: PhrasingContent[]): { children: PhrasingContent[]; id?: string } {
  const [open, close] = children.slice(-2);
  const openTag = open?.type === 'html' ? htmlTag(open.value) : null;
  const closeTag = close?.type === 'html' ? htmlTag(close.value) : null;
  if (openTag?.name !== 'a' || openTag.closing || !openTag.attrs.id || closeTag?.name !== 'a' || !closeTag.closing) return { children };
  const rest = children.slice(0, -2);
  const last = rest[rest.length - 1];
  if (last?.type === 'text') rest[rest.length - 1] = { ...last, value: last.value.trimEnd() };
  const id = /^[-a-z0-9.+_]+$/.test(openTag.attrs.id) ? openTag.attrs.id : slug(openTag.attrs.id);
  return { children: rest, id: id || undefined };
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
  const nodes = convertInlines(node.children, ctx);
  // Git Sync ends a block with `\` when its text ends with a line break; CommonMark reads a literal backslash
  const last = nodes[nodes.length - 1];
  if (last?.object === 'text' && /(^|[^\\])(\\\\)*\\$/.test(sourceOf(node, ctx).trimEnd())) {
    const tail = last.leaves[last.leaves.length - 1];
    if (tail.text.endsWith('\\')) tail.text = tail.text.slice(0, -1) + '\n';
  }
  return paragraph(nodes);
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

function htmlBlock(node: Html, ctx: ParseContext): DocumentBlock[] {
  const value = node.value.trim();
  if (value.startsWith('<!--')) return [];
  if (isHtmlCode(value)) {
    const code = readHtmlCode(value);
    if (code) return [code];
  }
  if (/^(?:<div[^>]*>\s*)?<figure[\s>]/i.test(value)) return [figures(value, ctx)];
  if (/^<table[^>]*data-view="cards"/i.test(value)) return [cardsTable(value, ctx)];
  if (/^<table[\s>]/i.test(value) && /<\/table>$/i.test(value)) {
    const table = htmlGridTable(value, ctx);
    if (table) return [table];
  }
  const aligned = /^<p\s+align="(left|center|right)"\s*>((?:(?!<\/?p[\s>])[\s\S])*)<\/p>$/i.exec(value);
  if (aligned) {
    const align = { left: 'start', center: 'center', right: 'end' }[aligned[1].toLowerCase() as 'left' | 'center' | 'right'];
    return [{ ...captionParagraph(aligned[2].trim(), ctx), data: { align } }];
  }
  const tag = htmlTag(value);
  if (tag?.name === 'img' || tag?.name === 'a') {
    const inner = parseMarkdown(value).children[0];
    if (inner?.type === 'paragraph') return [paragraph(convertInlines(inner.children, ctx))];
    return [paragraph(convertInlines([{ type: 'html', value }], ctx))];
  }
  return [paragraph([text(value)])];
}

/** `<figure><img src alt width><figcaption><p>…</p></figcaption></figure>`, several in a row and an optional `<div align>` wrapper. */
function figures(html: string, ctx: ParseContext): DocumentBlock {
  const align = /^<div\s[^>]*align="(left|center|right)"/i.exec(html)?.[1];
  const images = Array.from(html.matchAll(/<figure[^>]*>([\s\S]*?)<\/figure>/gi), (m) => {
    const img = tagsNamed(m[1], 'img')[0] ?? {};
    const caption = (innerOf(m[1], 'figcaption') ?? '').replace(/^\s*<p>([\s\S]*)<\/p>\s*$/i, '$1').trim();
    const width = img.width && /^\d+(\.\d+)?$/.test(img.width) ? Number(img.width) : undefined;
    return imageBlock(img.src ?? '', img.alt ?? '', width, caption ? [captionParagraph(caption, ctx)] : [], ctx);
  });
  return block('images', align ? { align } : {}, images);
}
