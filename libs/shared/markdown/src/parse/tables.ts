import type { PhrasingContent, Table } from 'mdast';
import { attributes, htmlTag } from '../html';
import { block, fragment, inlineText, paragraph } from '../nodes';
import { isAbsoluteUrl, linkRef } from '../refs';
import type { DocumentBlock, DocumentFragment } from '../types';
import { captionParagraph } from './simple-blocks';
import type { ParseContext } from './context';
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
  return groups.map((g) => paragraph(convertInlines(g, ctx)));
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
          (cells[c] ?? '').split(/<br\s*\/?>/i).map((part) => captionParagraph(part, ctx)),
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

/**
 * `<table data-view="cards">` as Git Sync writes it: a header row whose `<th>` carry `data-hidden`,
 * `data-card-target`, `data-card-cover` and `data-type`, then one `<tr>` per card.
 */
export function cardsTable(html: string, ctx: ParseContext): DocumentBlock {
  const tableAttrs = attributes(/^<table([^>]*)>/i.exec(html)?.[1] ?? '');
  const head = /<thead>([\s\S]*?)<\/thead>/i.exec(html)?.[1] ?? '';
  const headers = Array.from(head.matchAll(/<th([^>]*)>([\s\S]*?)<\/th>/gi), (m) => ({ attrs: attributes(m[1]), title: m[2].replace(/<[^>]+>/g, '').trim() }));
  const ids = headers.map((_, i) => columnId(i));
  const definition: Record<string, unknown> = {};
  const view: Record<string, unknown> = { type: 'cards', columns: [], cardSize: tableAttrs['data-card-size'] === 'large' ? 'large' : 'medium' };
  headers.forEach((h, i) => {
    const type = h.attrs['data-type'] === 'content-ref' || h.attrs['data-type'] === 'files' ? h.attrs['data-type'] : 'text';
    definition[ids[i]] = type === 'text' ? { id: ids[i], title: h.title, type, textAlignment: 'left' } : { id: ids[i], title: h.title, type };
    if (!('data-hidden' in h.attrs)) (view.columns as string[]).push(ids[i]);
    if ('data-card-target' in h.attrs) view.targetDefinition = ids[i];
    if ('data-card-cover' in h.attrs) view.coverDefinition = ids[i];
  });
  const body = /<tbody>([\s\S]*?)<\/tbody>/i.exec(html)?.[1] ?? '';
  const records: Record<string, unknown> = {};
  const fragments: DocumentFragment[] = [];
  Array.from(body.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/gi)).forEach((row, r) => {
    const cells = Array.from(row[1].matchAll(/<td[^>]*>([\s\S]*?)<\/td>/gi), (m) => m[1].trim());
    const values: Record<string, unknown> = {};
    ids.forEach((id, c) => {
      const inner = cells[c] ?? '';
      const type = (definition[id] as { type: string }).type;
      const hrefs = Array.from(inner.matchAll(/<a\s([^>]*)>/gi), (m) => attributes(m[1]).href ?? '');
      if (type === 'content-ref') {
        const ref = hrefs[0] ? linkRef(hrefs[0], ctx.options) : null;
        if (ref) values[id] = ref;
      } else if (type === 'files') {
        const files = hrefs.map((h) => (isAbsoluteUrl(h) ? null : ctx.options.resolveFile?.(h)?.file)).filter((f): f is string => !!f);
        if (files.length) values[id] = files;
      } else {
        const name = `${recordId(r)}${id}`;
        values[id] = name;
        fragments.push(fragment(name, [inner ? captionParagraph(inner, ctx) : paragraph([])]));
      }
    });
    records[recordId(r)] = { orderIndex: orderIndex(r), values };
  });
  return { ...block('table', { view, records, definition }), fragments };
}
