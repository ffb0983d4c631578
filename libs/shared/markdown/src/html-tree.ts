import type { Element, ElementContent, Root, RootContent } from 'hast';
import { fromHtml } from 'hast-util-from-html';

/**
 * HTML GitBook embeds in Markdown, read with a real HTML parser (hast): block HTML (aligned headings, figures,
 * pictures, cards tables) and the text of HTML nothing else reads. Positions index into the snippet parsed, so the
 * inner source of an element can be handed back to the Markdown reader (cells and captions hold inline Markdown).
 */
export function parseHtml(html: string): Root {
  return fromHtml(html, { fragment: true });
}

export function isElement(node: RootContent | ElementContent | undefined, ...names: string[]): node is Element {
  return node?.type === 'element' && (!names.length || names.includes(node.tagName));
}

/** Element and non-blank text children (comments and blank text dropped). */
export function meaningful(children: Array<RootContent | ElementContent>): Array<Element | (RootContent & { type: 'text' })> {
  return children.filter((c): c is Element | (RootContent & { type: 'text' }) => c.type === 'element' || (c.type === 'text' && c.value.trim() !== '')) as never;
}

/** An attribute as written (`data-card-cover`, `class`), or undefined when absent; a bare attribute gives ''. */
export function attr(el: Element, name: string): string | undefined {
  const key = name === 'class' ? 'className' : name === 'srcset' ? 'srcSet' : name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  const value = el.properties[key];
  if (value === undefined || value === null || value === false) return undefined;
  if (value === true) return '';
  return Array.isArray(value) ? value.join(' ') : String(value);
}

export function has(el: Element, name: string): boolean {
  return attr(el, name) !== undefined;
}

/** The source between an element's opening and closing tags (its children as written). */
export function innerSource(el: Element, source: string): string {
  const first = el.children[0]?.position?.start.offset;
  const last = el.children[el.children.length - 1]?.position?.end.offset;
  return first === undefined || last === undefined ? '' : source.slice(first, last);
}

export function sourceSlice(nodes: Array<RootContent | ElementContent>, source: string): string {
  const start = nodes[0]?.position?.start.offset;
  const end = nodes[nodes.length - 1]?.position?.end.offset;
  return start === undefined || end === undefined ? '' : source.slice(start, end);
}

export function descendants(node: Root | Element, name: string): Element[] {
  const out: Element[] = [];
  const visit = (n: RootContent | ElementContent) => {
    if (n.type !== 'element') return;
    if (n.tagName === name) out.push(n);
    n.children.forEach(visit);
    if (n.tagName === 'template' && n.content) n.content.children.forEach(visit);
  };
  node.children.forEach(visit);
  return out;
}

const BLOCK_ELEMENTS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'dd',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'tr',
  'ul',
]);
const SILENT = new Set(['script', 'style', 'template', 'noscript', 'iframe', 'object', 'embed', 'select', 'input', 'textarea', 'button', 'svg']);

/** What a reader of HTML sees as text: scripts and styles dropped, block elements on lines of their own, spaces collapsed. */
export function htmlText(html: string): string {
  const parts: string[] = [];
  const visit = (n: RootContent | ElementContent) => {
    if (n.type === 'text') parts.push(n.value.replace(/\s+/g, ' '));
    if (n.type !== 'element' || SILENT.has(n.tagName)) return;
    const blockLike = BLOCK_ELEMENTS.has(n.tagName);
    if (blockLike) parts.push('\n');
    n.children.forEach(visit);
    if (blockLike) parts.push('\n');
    if (n.tagName === 'td' || n.tagName === 'th') parts.push(' ');
  };
  parseHtml(html).children.forEach(visit);
  return parts
    .join('')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}
