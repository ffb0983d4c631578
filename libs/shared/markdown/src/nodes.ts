import type { DocumentBlock, DocumentFragment, DocumentInline, DocumentLeaf, DocumentMark, DocumentNode, DocumentText } from './types';

/** Block types the spec declares void (no `nodes`; content, if any, lives in `data` or `fragments`). */
const VOID_BLOCKS = new Set(['divider', 'math', 'image', 'file', 'embed', 'content-ref', 'table', 'expandable', 'drawing', 'reusable-content', 'integration']);
const VOID_INLINES = new Set(['inline-image', 'emoji', 'inline-math', 'button', 'icon', 'mention']);

export function block(type: string, data: Record<string, unknown> = {}, nodes?: DocumentNode[]): DocumentBlock {
  if (VOID_BLOCKS.has(type)) return { object: 'block', type, data, isVoid: true };
  return { object: 'block', type, data, nodes: nodes ?? [], isVoid: false };
}

export function inline(type: string, data: Record<string, unknown>, nodes?: DocumentNode[]): DocumentInline {
  if (VOID_INLINES.has(type)) return { object: 'inline', type, data, isVoid: true };
  return { object: 'inline', type, data, nodes: nodes ?? [], isVoid: false };
}

export function fragment(name: string, nodes: DocumentBlock[], type?: string): DocumentFragment {
  return type ? { object: 'fragment', fragment: name, type, nodes } : { object: 'fragment', fragment: name, nodes };
}

export function leaf(text: string, marks: DocumentMark[] = []): DocumentLeaf {
  return { object: 'leaf', text, marks };
}

export function text(value: string, marks: DocumentMark[] = []): DocumentText {
  return { object: 'text', leaves: [leaf(value, marks)] };
}

export function paragraph(nodes: DocumentNode[]): DocumentBlock {
  return block('paragraph', {}, nodes.length ? nodes : [text('')]);
}

export function isBlock(node: DocumentNode): node is DocumentBlock {
  return node.object === 'block';
}

export function childBlocks(node: DocumentBlock): DocumentBlock[] {
  return (node.nodes ?? []).filter(isBlock);
}

/** Plain text of inline content (texts, links, emoji, inline maths), newline-free. */
export function inlineText(nodes: DocumentNode[] | undefined): string {
  let out = '';
  for (const node of nodes ?? []) {
    if (node.object === 'text') out += node.leaves.map((l) => l.text).join('');
    else if (node.object === 'inline') {
      if (node.type === 'emoji') out += emojiChar(String(node.data.code ?? ''));
      else if (node.type === 'inline-math') out += String(node.data.formula ?? '');
      else if (node.type === 'button') out += String(node.data.label ?? '');
      else out += inlineText(node.nodes);
    }
  }
  return out;
}

/** GitBook stores an emoji as its code points in hex, dash-separated (`1f680`, `26a0-fe0f`). */
export function emojiCode(char: string): string {
  return Array.from(char, (c) => c.codePointAt(0)!.toString(16)).join('-');
}

export function emojiChar(code: string): string {
  const points = code.split('-').map((h) => parseInt(h, 16));
  return points.every((p) => Number.isInteger(p) && p >= 0 && p <= 0x10ffff) ? String.fromCodePoint(...points) : '';
}
