import type { PhrasingContent } from 'mdast';
import { firstOfSrcset, htmlTag, type HtmlTag } from '../html';
import { htmlText } from '../html-tree';
import { colorMarkFromStyle, mark, sameMarks, withMark } from '../marks';
import { emojiCode, inline, leaf, text } from '../nodes';
import { imageRef, linkRef } from '../refs';
import type { DocumentInline, DocumentMark, DocumentNode, DocumentText } from '../types';
import { sourceOf, type ParseContext } from './context';

/** An emoji as one grapheme: a pictograph shown as emoji (with modifiers, ZWJ sequences), or a flag. */
const EMOJI =
  /(?:\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F)(?:\p{Emoji_Modifier}|\uFE0F|\u200D(?:\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F?))*|\p{Regional_Indicator}{2}/gu;

const HTML_MARKS: Record<string, DocumentMark> = {
  kbd: mark('keyboard'),
  sup: mark('superscript'),
  sub: mark('subscript'),
  s: mark('strikethrough'),
  del: mark('strikethrough'),
  strike: mark('strikethrough'),
  strong: mark('bold'),
  b: mark('bold'),
  em: mark('italic'),
  i: mark('italic'),
  code: mark('code'),
};

/** Elements that start a line of their own when only their text is kept. */
const LINE_ELEMENTS = new Set(['li', 'ul', 'ol', 'div', 'tr', 'dd', 'dt', 'blockquote', 'section', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** Accumulates texts and inlines, merging adjacent leaves that carry the same marks. */
class InlineBuilder {
  readonly nodes: DocumentNode[] = [];
  constructor(readonly inLink: boolean) {}

  text(value: string, marks: DocumentMark[]): void {
    if (!value) return;
    if (this.inLink || marks.some((m) => m.type === 'code')) return this.leaf(value, marks);
    let last = 0;
    for (const match of value.matchAll(EMOJI)) {
      this.leaf(value.slice(last, match.index), marks);
      this.inline(inline('emoji', { code: emojiCode(match[0]) }));
      last = match.index! + match[0].length;
    }
    this.leaf(value.slice(last), marks);
  }

  /** A line break unless at the start or right after one. */
  lineBreak(marks: DocumentMark[]): void {
    const last = this.nodes[this.nodes.length - 1];
    if (!last) return;
    if (last.object === 'text' && last.leaves[last.leaves.length - 1].text.endsWith('\n')) return;
    this.leaf('\n', marks);
  }

  inline(node: DocumentInline): void {
    this.nodes.push(node);
  }

  private leaf(value: string, marks: DocumentMark[]): void {
    if (!value) return;
    const last = this.nodes[this.nodes.length - 1];
    if (last?.object !== 'text') return void this.nodes.push(text(value, marks));
    const tail = last.leaves[last.leaves.length - 1];
    if (sameMarks(tail.marks, marks)) tail.text += value;
    else last.leaves.push(leaf(value, marks));
  }
}

/** Phrasing content → document inline nodes (texts with marks, links, images, emoji, maths, buttons). */
export function convertInlines(children: PhrasingContent[], ctx: ParseContext): DocumentNode[] {
  const builder = new InlineBuilder(false);
  walk(children, [], ctx, builder);
  return builder.nodes.length ? builder.nodes : [text('')];
}

function walk(children: PhrasingContent[], marks: DocumentMark[], ctx: ParseContext, out: InlineBuilder): void {
  const opened: Array<{ tag: string; mark: DocumentMark | null }> = [];
  const current = () => opened.reduce((acc, o) => (o.mark ? withMark(acc, o.mark) : acc), marks);
  for (let i = 0; i < children.length; i++) {
    const node = children[i];
    const active = current();
    switch (node.type) {
      case 'text':
        out.text(node.value.replace(/[ \t]*\n[ \t]*/g, ' '), active);
        break;
      case 'strong':
        walk(node.children, withMark(active, mark('bold')), ctx, out);
        break;
      case 'emphasis':
        walk(node.children, withMark(active, mark('italic')), ctx, out);
        break;
      case 'delete':
        walk(node.children, withMark(active, mark('strikethrough')), ctx, out);
        break;
      case 'inlineCode':
        out.text(node.value, withMark(active, mark('code')));
        break;
      case 'break':
        out.text('\n', active);
        break;
      case 'inlineMath':
        if (out.inLink) out.text(node.value, withMark(active, mark('code')));
        else out.inline(inline('inline-math', { formula: node.value }));
        break;
      case 'link':
        // inside HTML `<code>`, a bare URL is code text, not a GFM autolink
        if (active.some((m) => m.type === 'code') && !/^[[<]/.test(sourceOf(node, ctx))) walk(node.children, active, ctx, out);
        else link(node.url, node.children, active, ctx, out);
        break;
      case 'linkReference': {
        const def = ctx.definitions.get(node.identifier);
        if (def) link(def.url, node.children, active, ctx, out);
        else walk(node.children, active, ctx, out);
        break;
      }
      case 'image':
        out.inline(inlineImage(node.url, node.alt ?? '', undefined, ctx));
        break;
      case 'imageReference': {
        const def = ctx.definitions.get(node.identifier);
        if (def) out.inline(inlineImage(def.url, node.alt ?? '', undefined, ctx));
        break;
      }
      case 'footnoteReference':
        out.text(`[^${node.label ?? node.identifier}]`, active);
        break;
      case 'html': {
        const tag = htmlTag(node.value);
        if (node.value.startsWith('<!--')) break;
        if (!tag) {
          // several tags in one node (`<span><b>x</b></span>` read as a block): their text, the source kept
          const text = htmlText(node.value);
          if (text !== node.value) ctx.dropped.count++;
          out.text(text, active);
          break;
        }
        const closer = (name: string) => children.findIndex((c, j) => j > i && c.type === 'html' && htmlTag(c.value)?.name === name && htmlTag(c.value)?.closing);
        if (tag.name === 'a' && !tag.closing) {
          const end = closer('a');
          const inner = children.slice(i + 1, end < 0 ? children.length : end);
          anchorTag(tag, inner, active, ctx, out);
          i = end < 0 ? children.length : end;
          break;
        }
        if (tag.name === 'picture' && !tag.closing) {
          // `<picture><source srcset="dark.png" media="(prefers-color-scheme: dark)"><img src="light.png" alt=""></picture>`
          const end = closer('picture');
          const inner = children.slice(i + 1, end < 0 ? children.length : end).flatMap((c) => (c.type === 'html' ? [htmlTag(c.value)] : []));
          const img = inner.find((t) => t?.name === 'img');
          const dark = inner.find((t) => t?.name === 'source' && /dark/.test(t.attrs.media ?? ''));
          if (img) out.inline(inlineImage(img.attrs.src ?? '', img.attrs.alt ?? '', img.attrs['data-size'], ctx, firstOfSrcset(dark?.attrs.srcset)));
          i = end < 0 ? children.length : end;
          break;
        }
        const icon = tag.name === 'i' && !tag.closing ? iconName(tag.attrs.class) : undefined;
        if (icon) {
          // `<i class="fa-leaf">:leaf:</i>`: the text inside is the icon's name again, for readers of the raw file
          const end = closer('i');
          out.inline(inline('icon', { icon }));
          i = end < 0 ? i : end;
          break;
        }
        if (tag.name === 'br') out.text('\n', active);
        else if (tag.name === 'img') out.inline(inlineImage(tag.attrs.src ?? '', tag.attrs.alt ?? '', tag.attrs['data-size'], ctx));
        else if (tag.name === 'mark' || (tag.name in HTML_MARKS && !(tag.name === 'i' && tag.attrs.class))) {
          if (tag.closing) {
            const at = opened.map((o) => o.tag).lastIndexOf(tag.name);
            if (at >= 0) opened.splice(at, 1);
          } else opened.push({ tag: tag.name, mark: tag.name === 'mark' ? colorMarkFromStyle(tag.attrs.style ?? '') : HTML_MARKS[tag.name] });
        } else if (tag.name !== 'p') {
          // HTML no node holds: its text stays (a block element starts a new line), the paragraph keeps its source
          ctx.dropped.count++;
          if (!tag.closing && LINE_ELEMENTS.has(tag.name)) out.lineBreak(active);
        }
        break;
      }
      default:
        break;
    }
  }
}

function link(href: string, children: PhrasingContent[], marks: DocumentMark[], ctx: ParseContext, out: InlineBuilder): void {
  const ref = out.inLink ? null : linkRef(href, ctx.options);
  if (!ref) return walk(children, marks, ctx, out);
  const inner = new InlineBuilder(true);
  walk(children, marks, ctx, inner);
  const nodes = inner.nodes.filter((n) => n.object === 'text' || n.type === 'inline-image');
  out.inline(inline('link', { ref }, nodes.length ? nodes : [text(href)]));
}

/** `<a href class="button primary">Label</a>` is a button; any other `<a href>` a link. */
function anchorTag(tag: HtmlTag, inner: PhrasingContent[], marks: DocumentMark[], ctx: ParseContext, out: InlineBuilder): void {
  const classes = (tag.attrs.class ?? '').split(/\s+/);
  const href = tag.attrs.href ?? '';
  // `<a id="x"></a>` (an anchor target, no link): no node holds it, the paragraph keeps its source
  if (!href) ctx.dropped.count++;
  if (!classes.includes('button')) return link(href, inner, marks, ctx, out);
  const labelBuilder = new InlineBuilder(true);
  walk(inner, [], ctx, labelBuilder);
  const label = labelBuilder.nodes.map((n) => (n.object === 'text' ? (n as DocumentText).leaves.map((l) => l.text).join('') : '')).join('');
  const ref = linkRef(href, ctx.options);
  if (!ref) return out.text(label, marks);
  const data: Record<string, unknown> = { label, kind: classes.includes('secondary') ? 'secondary' : 'primary', ref };
  // the official Icon is at most 50 characters: a longer name is no icon
  if (tag.attrs['data-icon'] && tag.attrs['data-icon'].length <= 50) data.icon = tag.attrs['data-icon'];
  out.inline(inline('button', data));
}

/** `fa-leaf` → `leaf` (style classes such as `fa-solid` name no icon; nor does a name over the official 50 characters). */
export function iconName(classes: string | undefined): string | undefined {
  const names = (classes ?? '').split(/\s+/).filter((c) => c.startsWith('fa-') && !FA_STYLES.has(c));
  const name = names[0]?.slice(3);
  return name && name.length <= 50 ? name : undefined;
}

const FA_STYLES = new Set(['fa-solid', 'fa-regular', 'fa-light', 'fa-thin', 'fa-duotone', 'fa-brands', 'fa-sharp', 'fa-fw']);

function inlineImage(src: string, alt: string, size: string | undefined, ctx: ParseContext, dark?: string): DocumentInline {
  const data: Record<string, unknown> = { ref: imageRef(src, ctx.options) };
  if (dark) data.refDark = imageRef(dark, ctx.options);
  if (alt) data.alt = alt;
  if (size === 'line' || size === 'original') data.size = size;
  return inline('inline-image', data);
}
