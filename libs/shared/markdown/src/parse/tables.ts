import type { PhrasingContent, Table } from 'mdast';
import { attributes, htmlTag } from '../html';
import { block, fragment, inlineText, paragraph } from '../nodes';
import type { DocumentBlock, DocumentFragment } from '../types';
import { captionParagraph, keptParagraph } from './simple-blocks';
import { sourceOf, type ParseContext } from './context';
import { keepSource } from '../verbatim';
import { convertInlines } from './inlines';

/** Table-local ids: definitions `c<n>`, records `r<n>`, text cells' fragments `r<n>c<m>` (the record value names the fragment). */
const columnId = (i: number) => `c${i}`;
const recordId = (i: number) => `r${i}`;
/** Fixed-width so records sort by orderIndex as strings. */
export const orderIndex = (i: number) => `a${String(i).padStart(4, '0')}`;

/** A GFM table → a grid table: one text column per header cell, one record per row, each cell a fragment of paragraphs. */
export function gridTable(node: Table, ctx: ParseContext): DocumentBlock {
  const [head, ...rows] = node.children;
  const width = Math.max(...node.children.map((r) => r.children.length));
  const ids = Array.from({ length: width }, (_, i) => columnId(i));
  const definition: Record<string, unknown> = {};
  ids.forEach((id, i) => {
    const cell = head?.children[i];
    const title = cell ? inlineText(convertInlines(cell.children, ctx)) : '';
    definition[id] = { id, title, type: 'text', textAlignment: node.align?.[i] ?? 'left' };
  });
  const records: Record<string, unknown> = {};
  const fragments: DocumentFragment[] = [];
  rows.forEach((row, r) => {
    const values: Record<string, string> = {};
    ids.forEach((id, c) => {
      const name = `${recordId(r)}${id}`;
      values[id] = name;
      fragments.push(fragment(name, cellParagraphs(row.children[c]?.children ?? [], ctx)));
    });
    records[recordId(r)] = { orderIndex: orderIndex(r), values };
  });
  return { ...block('table', { view: { type: 'grid', columns: ids, hideHeader: false }, records, definition }), fragments };
}

/** `<br>` inside a GFM cell separates paragraphs (a cell cannot hold block Markdown). */
function cellParagraphs(children: PhrasingContent[], ctx: ParseContext): DocumentBlock[] {
  const groups: PhrasingContent[][] = [[]];
  for (const child of children) {
    if (child.type === 'html' && htmlTag(child.value)?.name === 'br') groups.push([]);
    else groups[groups.length - 1].push(child);
  }
  return groups.map((g) => {
    const dropped = ctx.dropped.count;
    const written = ctx.written.length;
    const p = paragraph(convertInlines(g, ctx));
    // HTML no node holds (`<ul><li>` in a cell): the cell keeps its source, printed back while unchanged
    return ctx.dropped.count > dropped
      ? keepSource(
          p,
          sourceOf({ type: 'paragraph', children: g, position: { start: g[0].position!.start, end: g[g.length - 1].position!.end } }, ctx).trim(),
          ctx.written.slice(written),
        )
      : p;
  });
}

/**
 * A grid table Git Sync writes as HTML because its columns have widths:
 * `<table><thead><tr><th width="160">Type</th>…</tr></thead><tbody><tr><td>…</td>…</tr></tbody></table>`.
 * Widths go to `view.columnWidths`; each cell is inline HTML, `<br>` separating its paragraphs.
 */
export function htmlGridTable(html: string, ctx: ParseContext): DocumentBlock | null {
  const head = /<thead>([\s\S]*?)<\/thead>/i.exec(html)?.[1];
  if (head === undefined) return null;
  const headers = Array.from(head.matchAll(/<th([^>]*)>([\s\S]*?)<\/th>/gi), (m) => ({ attrs: attributes(m[1]), inner: m[2] }));
  const ids = headers.map((_, i) => columnId(i));
  const definition: Record<string, unknown> = {};
  const columnWidths: Record<string, number> = {};
  headers.forEach((h, i) => {
    const title = h.inner
      .split(/<br\s*\/?>/i)
      .map((part) => inlineText(captionParagraph(part, ctx).nodes))
      .join('\n');
    definition[ids[i]] = { id: ids[i], title, type: 'text', textAlignment: alignment(h.attrs.align) };
    if (h.attrs.width && /^\d+(\.\d+)?$/.test(h.attrs.width)) columnWidths[ids[i]] = Number(h.attrs.width);
  });
  const body = /<tbody>([\s\S]*?)<\/tbody>/i.exec(html)?.[1] ?? '';
  const records: Record<string, unknown> = {};
  const fragments: DocumentFragment[] = [];
  Array.from(body.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/gi)).forEach((row, r) => {
    const cells = Array.from(row[1].matchAll(/<td[^>]*>([\s\S]*?)<\/td>/gi), (m) => m[1].trim());
    const values: Record<string, string> = {};
    ids.forEach((id, c) => {
      const name = `${recordId(r)}${id}`;
      values[id] = name;
      fragments.push(
        fragment(
          name,
          (cells[c] ?? '').split(/<br\s*\/?>/i).map((part) => keptParagraph(part, ctx)),
        ),
      );
    });
    records[recordId(r)] = { orderIndex: orderIndex(r), values };
  });
  const view: Record<string, unknown> = { type: 'grid', columns: ids, hideHeader: false };
  if (Object.keys(columnWidths).length) view.columnWidths = columnWidths;
  return { ...block('table', { view, records, definition }), fragments };
}

function alignment(value: string | undefined): 'left' | 'center' | 'right' {
  return value === 'center' || value === 'right' ? value : 'left';
}
