import { slug } from 'github-slugger';
import type { Element } from 'hast';
import type { Html, PhrasingContent } from 'mdast';
import { firstOfSrcset, htmlTag } from '../html';
import { isHtmlCode, readHtmlCode } from '../html-code';
import { attr, descendants, has, htmlText, innerSource, isElement, meaningful, parseHtml } from '../html-tree';
import { block, fragment, paragraph, text } from '../nodes';
import { imageRef } from '../refs';
import { parseMarkdown } from '../remark';
import type { DocumentBlock } from '../types';
import { keepSource, withParsedSource } from '../verbatim';
import { cardsTable } from './cards';
import type { ParseContext } from './context';
import { convertInlines } from './inlines';
import { captionParagraph } from './simple-blocks';
import { htmlGridTable } from './tables';

const ALIGN: Record<string, 'start' | 'center' | 'end'> = { left: 'start', center: 'center', right: 'end' };

/** A raw HTML block: the forms GitBook writes become their nodes; anything else a paragraph of its text keeping its source. */
export function htmlBlock(node: Html, ctx: ParseContext): DocumentBlock[] {
  const value = node.value.trim();
  if (value.startsWith('<!--')) return [];
  const written = ctx.written.length;
  if (isHtmlCode(value)) {
    const code = readHtmlCode(value);
    if (code) return [code];
  }
  const tree = parseHtml(value);
  const top = meaningful(tree.children);
  const only = top.length === 1 && isElement(top[0]) ? top[0] : undefined;
  const name = only?.tagName;
  if (top.length && top.every((c) => isElement(c, 'figure'))) return [withParsedSource(figures(top as Element[], undefined, value, ctx), node.value, ctx.written.slice(written))];
  if (only && name === 'div' && meaningful(only.children).every((c) => isElement(c, 'figure')))
    return [withParsedSource(figures(meaningful(only.children) as Element[], only, value, ctx), node.value, ctx.written.slice(written))];
  if (only && name === 'table' && attr(only, 'data-view') === 'cards') return [cardsTable(only, value, ctx)];
  if (name === 'table') {
    const table = htmlGridTable(value, ctx);
    if (table) return [table];
  }
  const dropped = ctx.dropped.count;
  if (only && name === 'p' && has(only, 'align')) {
    const align = ALIGN[String(attr(only, 'align')).toLowerCase()];
    if (align) {
      const p = { ...captionParagraph(innerSource(only, value), ctx), data: { align } };
      return [ctx.dropped.count > dropped ? keepSource(p, node.value, ctx.written.slice(written)) : p];
    }
  }
  if (only && /^h[1-6]$/.test(name ?? '')) {
    const heading = htmlHeading(only, value, ctx);
    if (ctx.dropped.count === dropped) return [heading];
    ctx.dropped.count = dropped;
  }
  const tag = htmlTag(value);
  if (tag?.name === 'img' || tag?.name === 'a' || name === 'picture') {
    const inner = parseMarkdown(value).children[0];
    const p = paragraph(convertInlines(inner?.type === 'paragraph' ? inner.children : [{ type: 'html', value }], ctx));
    return [ctx.dropped.count > dropped ? keepSource(p, node.value, ctx.written.slice(written)) : p];
  }
  // HTML no node holds: its text (scripts and styles aside), lines as line breaks; printed back as written
  return [keepSource(paragraph([text(htmlText(value))]), node.value, [])];
}

/** `<h2 align="center">Title</h2>` (Git Sync's form for an aligned heading): h1/h2 → heading-1, h3 → heading-2, deeper → heading-3. */
function htmlHeading(el: Element, source: string, ctx: ParseContext): DocumentBlock {
  const depth = Number(el.tagName.slice(1));
  const type = depth <= 2 ? 'heading-1' : depth === 3 ? 'heading-2' : 'heading-3';
  const inner = parseMarkdown(innerSource(el, source)).children;
  const phrasing = inner.flatMap((c): PhrasingContent[] => (c.type === 'paragraph' ? c.children : c.type === 'html' ? [{ type: 'html', value: c.value }] : []));
  const { children, id } = headingAnchor(phrasing);
  const data: Record<string, unknown> = {};
  if (id) data.id = id;
  const align = ALIGN[String(attr(el, 'align') ?? '').toLowerCase()];
  if (align) data.align = align;
  return block(type, data, convertInlines(children, { ...ctx, source: innerSource(el, source) }));
}

/** Git Sync appends `<a href="#id" id="id"></a>` to a heading whose anchor differs from its text's slug. */
export function headingAnchor(children: PhrasingContent[]): { children: PhrasingContent[]; id?: string } {
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

/**
 * `<figure><img src alt width><figcaption><p>…</p></figcaption></figure>` — the image may be a `<picture>` whose
 * `<source media="(prefers-color-scheme: dark)">` is the dark variant — several in a row, optionally in a
 * `<div align data-with-frame data-full-width>`.
 */
function figures(list: Element[], div: Element | undefined, source: string, ctx: ParseContext): DocumentBlock {
  const data: Record<string, unknown> = {};
  if (div) {
    const align = attr(div, 'align');
    if (align === 'left' || align === 'center' || align === 'right') data.align = align;
    if (has(div, 'data-full-width')) data.fullWidth = attr(div, 'data-full-width') !== 'false';
    if (has(div, 'data-with-frame')) data.withFrame = attr(div, 'data-with-frame') !== 'false';
  }
  const images = list.map((figure) => {
    const img = descendants(figure, 'img')[0];
    const dark = descendants(figure, 'source').find((s) => /dark/.test(attr(s, 'media') ?? ''));
    const caption = descendants(figure, 'figcaption')[0];
    const captionP = caption
      ? meaningful(caption.children).length === 1 && isElement(meaningful(caption.children)[0], 'p')
        ? (meaningful(caption.children)[0] as Element)
        : caption
      : undefined;
    const captionSource = captionP ? innerSource(captionP, source).trim() : '';
    const width = img && /^\d+(\.\d+)?$/.test(attr(img, 'width') ?? '') ? Number(attr(img, 'width')) : undefined;
    const imageData: Record<string, unknown> = { ref: imageRef(img ? (attr(img, 'src') ?? '') : '', ctx.options) };
    const darkSrc = dark ? firstOfSrcset(attr(dark, 'srcset')) : undefined;
    if (darkSrc) imageData.refDark = imageRef(darkSrc, ctx.options);
    const alt = img ? attr(img, 'alt') : undefined;
    if (alt) imageData.alt = alt;
    if (width !== undefined) imageData.width = width;
    return { ...block('image', imageData), fragments: captionSource ? [fragment('caption', [captionParagraph(captionSource, ctx)])] : [] };
  });
  return block('images', data, images);
}
