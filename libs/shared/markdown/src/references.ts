import { inlineText } from './nodes';
import type { ContentRef, Document, DocumentFragment, DocumentNode } from './types';

type Visitable = DocumentNode | DocumentFragment;

/** Every content reference, in document order, with the key of the top-level block holding it. */
export function referencesOf(document: Document): Array<{ ref: ContentRef; block?: string }> {
  const out: Array<{ ref: ContentRef; block?: string }> = [];
  for (const top of document.nodes) {
    const block = top.key;
    const add = (ref: unknown) => {
      if (ref && typeof ref === 'object' && typeof (ref as { kind?: unknown }).kind === 'string') out.push(block ? { ref: ref as ContentRef, block } : { ref: ref as ContentRef });
    };
    const visit = (node: Visitable) => {
      if (node.object === 'block' || node.object === 'inline') {
        const data = node.data ?? {};
        add(data.ref);
        add(data.refDark);
        if (node.type === 'embed' && typeof data.url === 'string') add({ kind: 'url', url: data.url });
        if (node.type === 'table') tableRefs(data, add);
      }
      if ('nodes' in node && node.nodes) (node.nodes as Visitable[]).forEach(visit);
      if ('fragments' in node && node.fragments) node.fragments.forEach(visit);
    };
    visit(top);
  }
  return out;
}

function tableRefs(data: Record<string, unknown>, add: (ref: unknown) => void): void {
  const definition = (data.definition ?? {}) as Record<string, { type?: string }>;
  const records = Object.values((data.records ?? {}) as Record<string, { orderIndex?: string; values?: Record<string, unknown> }>).sort((a, b) =>
    String(a.orderIndex ?? '').localeCompare(String(b.orderIndex ?? '')),
  );
  for (const record of records) {
    for (const [column, value] of Object.entries(record.values ?? {})) {
      const type = definition[column]?.type;
      if (type === 'content-ref') add(value);
      else if (type === 'files' && Array.isArray(value)) value.forEach((file) => add({ kind: 'file', file: String(file) }));
      else if (type === 'image' && value && typeof value === 'object') add('ref' in value ? (value as { ref: unknown }).ref : value);
    }
  }
}

/** Plain text for search: one line per paragraph or heading (wherever they sit: lists, hints, tables, expandables…). */
export function plainTextOf(document: Document): string {
  const lines: string[] = [];
  const visit = (node: Visitable) => {
    if (node.object === 'block' && (node.type === 'paragraph' || node.type.startsWith('heading-'))) {
      const line = inlineText(node.nodes).replace(/\s+/g, ' ').trim();
      if (line) lines.push(line);
      return;
    }
    if (node.object === 'text' || node.object === 'inline') return;
    if ('fragments' in node && node.fragments) node.fragments.forEach(visit);
    if ('nodes' in node && node.nodes) (node.nodes as Visitable[]).forEach(visit);
  };
  document.nodes.forEach(visit);
  return lines.join('\n');
}
