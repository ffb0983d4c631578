import type { Element } from 'hast';
import type { DocumentInline, DocumentNode, DocumentText, RenderContext } from './types';
import { Child, el, text } from './hast';
import { iconElement } from './icons';
import { inlineMath } from './math';

/** Colours of the `color` mark and icons: GitBook's palette keys and semantic `$` tokens. */
const COLORS = /^(?:default|green|blue|red|orange|yellow|purple|pink|violet|cyan|\$primary|\$info|\$success|\$warning|\$danger|\$tint)$/;

export const colorClass = (kind: 'text' | 'bg', color: unknown): string | undefined =>
  typeof color === 'string' && COLORS.test(color) && color !== 'default' ? `${kind}-${color.replace('$', '')}` : undefined;

/** `1f600` or `26a0-fe0f` → the emoji's characters (code points joined by `-`). */
export function emojiChar(code: string): string {
  try {
    const points = code
      .split('-')
      .filter(Boolean)
      .map((h) => parseInt(h, 16));
    return points.every((p) => Number.isInteger(p) && p > 0 && p <= 0x10ffff) ? String.fromCodePoint(...points) : '';
  } catch {
    return '';
  }
}

/** A text node's leaves with their marks; a newline in a leaf is a line break. */
export function renderText(node: DocumentText): Child[] {
  const out: Child[] = [];
  for (const leaf of node.leaves ?? []) {
    if (!leaf.text) continue;
    const parts = leaf.text.split('\n');
    let content: Child[] = parts.flatMap((part, i) => (i === 0 ? (part ? [text(part)] : []) : [el('br'), ...(part ? [text(part)] : [])]));
    // Marks wrap from the innermost out, in the order stored.
    for (const mark of [...(leaf.marks ?? [])].reverse()) content = [wrapMark(mark.type, mark.data, content)];
    out.push(...content);
  }
  return out;
}

function wrapMark(type: string, data: Record<string, unknown> | undefined, children: Child[]): Child {
  switch (type) {
    case 'bold':
      return el('strong', {}, children);
    case 'italic':
      return el('em', {}, children);
    case 'code':
      return el('code', {}, children);
    case 'keyboard':
      return el('kbd', {}, children);
    case 'strikethrough':
      return el('s', {}, children);
    case 'superscript':
      return el('sup', {}, children);
    case 'subscript':
      return el('sub', {}, children);
    case 'color': {
      const classes = [colorClass('text', data?.text), colorClass('bg', data?.background)].filter((c): c is string => !!c);
      return classes.length ? el('span', { className: ['color', ...classes] }, children) : el('span', {}, children);
    }
    default:
      // An unknown mark changes no meaning the text carries: the text is shown as is.
      return el('span', { dataMark: type }, children);
  }
}

/** The inline content of a block (texts and inlines). */
export function renderInlines(nodes: DocumentNode[] | undefined, ctx: RenderContext): Child[] {
  const out: Child[] = [];
  for (const node of nodes ?? []) {
    if (node.object === 'text') out.push(...renderText(node));
    else if (node.object === 'inline') out.push(...renderInline(node, ctx));
    else out.push(unsupportedInline(node.type));
  }
  return out;
}

/** A placeholder for an inline the reader cannot show: visible, never silently dropped. */
export function unsupportedInline(type: string): Element {
  return el('span', { className: ['unsupported', 'unsupported-inline'], title: `Not shown here: ${type}` }, `[${type}]`);
}

function renderInline(node: DocumentInline, ctx: RenderContext): Child[] {
  const data = node.data ?? {};
  switch (node.type) {
    case 'link': {
      const children = renderInlines(node.nodes, ctx);
      const target = data.ref ? ctx.link(data.ref as never) : undefined;
      if (!target) return [el('span', { className: ['broken-link'] }, children)];
      const external = /^[a-z][a-z0-9+.-]*:/i.test(target.href) && !target.href.startsWith('mailto:');
      return [el('a', { href: target.href, target: external && ctx.externalLinksInNewTab ? '_blank' : undefined, rel: external ? ['noopener'] : undefined }, children)];
    }
    case 'inline-image': {
      const ref = data.ref as { kind?: string; file?: string; url?: string } | undefined;
      const src = imageSrc(ref, ctx);
      const alt = typeof data.alt === 'string' ? data.alt : typeof data.caption === 'string' ? data.caption : '';
      if (!src) return [unsupportedInline('inline-image')];
      const size = data.size === 'line' ? 'line' : 'original';
      // a dark variant (`<picture>` in GitBook's Markdown) is shown instead in the dark theme
      const dark = data.refDark ? imageSrc(data.refDark as never, ctx) : undefined;
      const img = (s: { url: string; width?: number; height?: number }, theme?: string) =>
        el('img', {
          src: s.url,
          alt,
          className: ['inline-image', `size-${size}`, theme].filter(Boolean) as string[],
          width: s.width,
          height: s.height,
          loading: 'lazy',
          decoding: 'async',
        });
      return dark ? [img(src, 'only-light'), img(dark, 'only-dark')] : [img(src)];
    }
    case 'emoji': {
      const char = emojiChar(String(data.code ?? ''));
      return char ? [el('span', { className: ['emoji'] }, char)] : [unsupportedInline('emoji')];
    }
    case 'icon': {
      const name = String(data.icon ?? '');
      return [iconElement(name, [colorClass('text', data.color)].filter(Boolean) as string[])];
    }
    case 'expression':
      // Expressions are evaluated by content for the page read; one left here is shown as written.
      return [el('code', { className: ['expression'] }, String(data.expression ?? ''))];
    case 'inline-math':
      return [inlineMath(String(data.formula ?? ''))];
    case 'annotation': {
      const body = (node.fragments ?? []).flatMap((f) => f.nodes.flatMap((b) => renderInlines(b.nodes, ctx)));
      return [
        el(
          'span',
          { className: ['annotation'] },
          el('span', { className: ['annotation-text'], tabIndex: 0 }, renderInlines(node.nodes, ctx)),
          el('span', { className: ['annotation-body'], role: 'note' }, body),
        ),
      ];
    }
    case 'mention': {
      const ref = data.ref as { kind?: string; user?: string } | undefined;
      const target = ref ? ctx.link(ref as never) : undefined;
      if (target) return [el('a', { href: target.href, className: ['mention'] }, target.title ?? target.href)];
      return [el('span', { className: ['mention'] }, ref?.kind === 'user' ? `@${ref.user}` : `@${ref?.kind ?? 'mention'}`)];
    }
    case 'button': {
      const label = String(data.label ?? '');
      const kind = data.kind === 'secondary' ? 'secondary' : 'primary';
      const target = data.ref ? ctx.link(data.ref as never) : undefined;
      const icon = typeof data.icon === 'string' && data.icon ? [iconElement(data.icon, [], true), ' '] : [];
      if (!target) return [el('span', { className: ['button', `button-${kind}`, 'button-inert'] }, ...icon, label)];
      return [el('a', { href: target.href, className: ['button', `button-${kind}`] }, ...icon, label)];
    }
    default:
      return [unsupportedInline(node.type)];
  }
}

/** An image's URL (a file of the revision or an absolute URL) and its intrinsic size when known. */
export function imageSrc(ref: { kind?: string; file?: string; url?: string } | undefined, ctx: RenderContext): { url: string; width?: number; height?: number } | undefined {
  if (!ref) return undefined;
  if (ref.kind === 'file' && ref.file) {
    const file = ctx.file(ref.file);
    return file ? { url: file.url, width: file.dimensions?.width, height: file.dimensions?.height } : undefined;
  }
  if (ref.kind === 'url' && typeof ref.url === 'string' && /^(https?:)?\/\//i.test(ref.url)) return { url: ref.url };
  return undefined;
}
