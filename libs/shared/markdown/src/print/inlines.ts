import type { PhrasingContent } from 'mdast';
import { escapeAttribute, openTag } from '../html';
import { MARK_ORDER, markKey, styleOfColorMark } from '../marks';
import { emojiChar, inlineText } from '../nodes';
import type { ContentRef, DocumentInline, DocumentLeaf, DocumentMark, DocumentNode } from '../types';

export type HrefOf = (ref: ContentRef) => string;

type Atom = { leaf: DocumentLeaf } | { inline: DocumentInline };

/** Marks Markdown writes as delimiter runs, whose flanking rules forbid whitespace just inside the delimiters. */
const ATTENTION = new Set(['bold', 'italic', 'strikethrough']);

/** Document inline content → mdast phrasing, nesting marks so the longest runs share one delimiter pair. */
export function printInlines(nodes: DocumentNode[] | undefined, hrefOf: HrefOf): PhrasingContent[] {
  return wrap(atomsOf(nodes ?? []), hrefOf);
}

function atomsOf(nodes: DocumentNode[]): Atom[] {
  const atoms: Atom[] = [];
  for (const node of nodes) {
    if (node.object === 'text') node.leaves.forEach((leaf) => atoms.push({ leaf }));
    else if (node.object === 'inline') atoms.push({ inline: node });
  }
  return atoms.flatMap((atom, i): Atom[] => ('leaf' in atom ? hoistWhitespace(atom.leaf, atoms[i - 1], atoms[i + 1]).map((leaf) => ({ leaf })) : [atom]));
}

/**
 * `**foo **` is not bold in Markdown: whitespace at the edge of a bold/italic/strikethrough run moves out of it.
 * Only the run's edges count, so a space before a neighbour that keeps the mark (`**a `b`**`) stays inside.
 */
function hoistWhitespace(l: DocumentLeaf, before: Atom | undefined, after: Atom | undefined): DocumentLeaf[] {
  if (l.marks.some((m) => m.type === 'code')) return [l];
  const edge = (neighbour: Atom | undefined) => l.marks.filter((m) => ATTENTION.has(m.type) && !(neighbour && has(neighbour, m)));
  const [leading, trailing] = [edge(before), edge(after)];
  if (!leading.length && !trailing.length) return [l];
  const m = /^(\s*)([\s\S]*?)(\s*)$/.exec(l.text)!;
  const without = (dropped: DocumentMark[]) => l.marks.filter((mk) => !dropped.includes(mk));
  return [
    { object: 'leaf' as const, text: m[1], marks: without(leading) },
    { ...l, text: m[2] },
    { object: 'leaf' as const, text: m[3], marks: without(trailing) },
  ].filter((x) => x.text);
}

/** A link shares the marks all its leaves carry, so `*see [this](x)*` stays one emphasis around the link. */
function marksOf(atom: Atom): DocumentMark[] {
  if ('leaf' in atom) return atom.leaf.marks.filter((m) => m.type !== 'code');
  if (atom.inline.type !== 'link' || !atom.inline.nodes?.length || atom.inline.nodes.some((n) => n.object !== 'text')) return [];
  const leaves = atom.inline.nodes.flatMap((n) => (n.object === 'text' ? n.leaves : []));
  return marksOf({ leaf: leaves[0] }).filter((m) => leaves.every((l) => l.marks.some((x) => markKey(x) === markKey(m))));
}

function withoutMark(atom: Atom, mark: DocumentMark): Atom {
  const strip = (l: DocumentLeaf) => ({ ...l, marks: l.marks.filter((m) => markKey(m) !== markKey(mark)) });
  if ('leaf' in atom) return { leaf: strip(atom.leaf) };
  return { inline: { ...atom.inline, nodes: atom.inline.nodes?.map((n) => (n.object === 'text' ? { ...n, leaves: n.leaves.map(strip) } : n)) } };
}

function has(atom: Atom, mark: DocumentMark): boolean {
  return marksOf(atom).some((m) => markKey(m) === markKey(mark));
}

function wrap(atoms: Atom[], hrefOf: HrefOf): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  let i = 0;
  while (i < atoms.length) {
    const marks = [...marksOf(atoms[i])].sort((a, b) => MARK_ORDER.indexOf(a.type) - MARK_ORDER.indexOf(b.type));
    if (!marks.length) {
      out.push(...render(atoms[i], hrefOf));
      i++;
      continue;
    }
    let best = marks[0];
    let end = i;
    for (const m of marks) {
      let j = i;
      while (j < atoms.length && has(atoms[j], m)) j++;
      if (j > end) [best, end] = [m, j];
    }
    const inner = atoms.slice(i, end).map((a) => withoutMark(a, best));
    out.push(...markNode(best, wrap(inner, hrefOf)));
    i = end;
  }
  return out;
}

function markNode(mark: DocumentMark, children: PhrasingContent[]): PhrasingContent[] {
  switch (mark.type) {
    case 'bold':
      return [{ type: 'strong', children }];
    case 'italic':
      return [{ type: 'emphasis', children }];
    case 'strikethrough':
      return [{ type: 'delete', children }];
    case 'keyboard':
      return htmlWrap('kbd', children);
    case 'superscript':
      return htmlWrap('sup', children);
    case 'subscript':
      return htmlWrap('sub', children);
    case 'color': {
      const style = styleOfColorMark(mark);
      return style ? [{ type: 'html', value: `<mark style="${style}">` }, ...children, { type: 'html', value: '</mark>' }] : children;
    }
    default:
      return children;
  }
}

function htmlWrap(tag: string, children: PhrasingContent[]): PhrasingContent[] {
  return [{ type: 'html', value: `<${tag}>` }, ...children, { type: 'html', value: `</${tag}>` }];
}

function render(atom: Atom, hrefOf: HrefOf): PhrasingContent[] {
  if ('leaf' in atom) {
    const code = atom.leaf.marks.some((m) => m.type === 'code');
    return atom.leaf.text
      .split('\n')
      .flatMap((part, i): PhrasingContent[] => [
        ...(i ? [{ type: 'break' as const }] : []),
        ...(part ? [code ? { type: 'inlineCode' as const, value: part } : { type: 'text' as const, value: part }] : []),
      ]);
  }
  const node = atom.inline;
  const data = node.data as Record<string, unknown>;
  switch (node.type) {
    case 'link': {
      const children = printInlines(node.nodes, hrefOf);
      const url = hrefOf(data.ref as ContentRef);
      return [{ type: 'link', url, children: children.length ? children : [{ type: 'text', value: url }] }];
    }
    case 'inline-image':
      return [{ type: 'html', value: pictureTag(data, hrefOf) }];
    case 'icon':
      return [{ type: 'html', value: iconTag(data) }];
    case 'emoji':
      return [{ type: 'text', value: emojiChar(String(data.code ?? '')) }];
    case 'inline-math':
      // GitBook writes inline maths between double dollars (`$$x$$`); remark-stringify would write `$x$`
      return [{ type: 'html', value: `$$${String(data.formula ?? '')}$$`, data: { inlineMath: String(data.formula ?? '') } }];
    case 'button': {
      const kind = data.kind === 'secondary' ? 'secondary' : 'primary';
      const href = data.ref ? hrefOf(data.ref as ContentRef) : '';
      const open = openTag('a', [
        ['href', href],
        ['class', `button ${kind}`],
        ['data-icon', data.icon as string | undefined],
      ]);
      return [
        { type: 'html', value: open },
        { type: 'text', value: String(data.label ?? '') },
        { type: 'html', value: '</a>' },
      ];
    }
    default: {
      // annotations, mentions, expressions, icons: their visible text only
      const value = inlineText(node.nodes);
      return value ? [{ type: 'text', value }] : [];
    }
  }
}

export function imgTag(data: Record<string, unknown>, hrefOf: HrefOf): string {
  return openTag('img', [
    ['src', hrefOf(data.ref as ContentRef)],
    ['alt', String(data.alt ?? '')],
    ['data-size', data.size as string | undefined],
  ]);
}

/** An image with a dark variant is a `<picture>` (Git Sync's form); without, a bare `<img>`. */
export function pictureTag(data: Record<string, unknown>, hrefOf: HrefOf): string {
  if (!data.refDark) return imgTag(data, hrefOf);
  const source = openTag('source', [
    ['srcset', hrefOf(data.refDark as ContentRef)],
    ['media', '(prefers-color-scheme: dark)'],
  ]);
  return `<picture>${source}${imgTag(data, hrefOf)}</picture>`;
}

/** `<i class="fa-leaf">:leaf:</i>`: a Font Awesome icon, its name repeated inside for readers of the raw file. */
export function iconTag(data: Record<string, unknown>): string {
  const name = String(data.icon ?? '');
  return `<i class="fa-${escapeAttribute(name)}">:${encodeText(name)}:</i>`;
}

/** Inline content as HTML, for places Markdown does not reach (cards table cells). Markdown punctuation is entity-encoded so a re-parse reads it as text. */
export function inlinesToHtml(nodes: DocumentNode[] | undefined, hrefOf: HrefOf): string {
  const TAGS: Record<string, string> = { bold: 'strong', italic: 'em', strikethrough: 's', code: 'code', keyboard: 'kbd', superscript: 'sup', subscript: 'sub' };
  return (nodes ?? [])
    .map((node) => {
      if (node.object === 'text') {
        return node.leaves
          .map((l) => {
            let html = encodeText(l.text);
            for (const m of [...l.marks].reverse()) {
              if (m.type === 'color') html = `<mark style="${styleOfColorMark(m)}">${html}</mark>`;
              else if (TAGS[m.type]) html = `<${TAGS[m.type]}>${html}</${TAGS[m.type]}>`;
            }
            return html;
          })
          .join('');
      }
      if (node.object === 'inline' && node.type === 'link') return `<a href="${escapeAttribute(hrefOf(node.data.ref as ContentRef))}">${inlinesToHtml(node.nodes, hrefOf)}</a>`;
      if (node.object === 'inline' && node.type === 'inline-image') return pictureTag(node.data, hrefOf);
      if (node.object === 'inline' && node.type === 'icon') return iconTag(node.data);
      if (node.object === 'inline' && node.type === 'inline-math') return `$$${encodeText(String(node.data.formula ?? ''))}$$`;
      if (node.object === 'inline' && node.type === 'button')
        return render({ inline: node }, hrefOf)
          .map((c) => (c.type === 'html' ? c.value : c.type === 'text' ? encodeText(c.value) : ''))
          .join('');
      return encodeText(inlineText([node]));
    })
    .join('');
}

function encodeText(value: string): string {
  const word = (c: string | undefined) => !!c && /[\p{L}\p{N}]/u.test(c);
  return value.replace(/[&<>*`[\]\\$~_\n]/g, (c, at: number) => {
    if (c === '\n') return '<br>';
    // an underscore inside a word (snake_case) cannot start emphasis, so it stays readable
    if (c === '_' && word(value[at - 1]) && word(value[at + 1])) return c;
    return `&#x${c.codePointAt(0)!.toString(16).toUpperCase()};`;
  });
}
