import { terms } from './text';

/** A part of a page: the text before its first heading, or a heading and what follows it up to the next. */
export interface PageSection {
  /** 0 for the text before the first heading */
  n: number;
  /** the heading's anchor; empty for the first part */
  anchor: string;
  /** the heading; the page's title for the first part */
  title: string;
  body: string;
}

type Node = { object?: string; type?: string; nodes?: Node[]; leaves?: { text?: string }[]; fragments?: Node[]; meta?: { id?: string } };

function textOf(node: Node): string {
  if (node.object === 'text') return (node.leaves ?? []).map((l) => l.text ?? '').join('');
  const parts = [...(node.nodes ?? []), ...(node.fragments ?? [])].map(textOf).filter(Boolean);
  return parts.join(node.object === 'block' && node.nodes?.some((n) => n.object === 'block') ? '\n' : '');
}

export function anchorOf(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}

/** A page's document (the official Document shape) split at its headings. */
export function sectionsOf(pageTitle: string, document: { nodes?: Node[] } | undefined): PageSection[] {
  const out: PageSection[] = [{ n: 0, anchor: '', title: pageTitle, body: '' }];
  const bodies: string[][] = [[]];
  for (const block of document?.nodes ?? []) {
    if (typeof block.type === 'string' && /^heading-[1-6]$/.test(block.type)) {
      const title = textOf(block).trim();
      out.push({ n: out.length, anchor: block.meta?.id || anchorOf(title), title, body: '' });
      bodies.push([]);
    } else {
      const text = textOf(block).trim();
      if (text) bodies[bodies.length - 1].push(text);
    }
  }
  out.forEach((s, i) => (s.body = bodies[i].join('\n')));
  return out.filter((s) => s.n === 0 || s.title || s.body);
}

/** Term frequencies of a text. */
export function frequencies(text: string): Record<string, number> {
  const tf: Record<string, number> = {};
  for (const t of terms(text)) tf[t] = (tf[t] ?? 0) + 1;
  return tf;
}
