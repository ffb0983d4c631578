import type { PhrasingContent, RootContent, Table, TableCell } from 'mdast';
import { inlineText } from '../nodes';
import type { ContentRef, DocumentBlock } from '../types';
import { keptSource } from '../verbatim';
import { printCards } from './cards';
import { inlinesToHtml, printInlines, type HrefOf } from './inlines';

interface Definition {
  id: string;
  title?: string;
  type: string;
  textAlignment?: string;
}

interface TableData {
  view?: { type?: string; columns?: string[]; columnWidths?: Record<string, number>; targetDefinition?: string; coverDefinition?: string; cardSize?: string };
  records?: Record<string, { orderIndex?: string; values?: Record<string, unknown> }>;
  definition?: Record<string, Definition>;
}

export function printTable(b: DocumentBlock, hrefOf: HrefOf): RootContent[] {
  const data = b.data as TableData;
  const records = Object.entries(data.records ?? {})
    .sort(([ia, a], [ib, b2]) => String(a.orderIndex ?? '').localeCompare(String(b2.orderIndex ?? '')) || ia.localeCompare(ib))
    .map(([, r]) => r.values ?? {});
  const definitions = data.definition ?? {};
  if (data.view?.type === 'cards') return [{ type: 'html', value: printCards(b, records, hrefOf) }];
  const columns = (data.view?.columns ?? Object.keys(definitions)).map((id) => definitions[id]).filter(Boolean);
  if (!columns.length) return [];
  const fragmentNodes = (name: unknown) => b.fragments?.find((f) => f.fragment === name)?.nodes ?? [];
  if (Object.keys(data.view?.columnWidths ?? {}).length && columns.every((c) => c.type === 'text'))
    return [{ type: 'html', value: htmlGrid(columns, records, data.view?.columnWidths ?? {}, fragmentNodes, hrefOf) }];
  const cell = (children: PhrasingContent[]): TableCell => ({ type: 'tableCell', children });
  const table: Table = {
    type: 'table',
    align: columns.map((c) => (c.textAlignment === 'center' || c.textAlignment === 'right' ? c.textAlignment : null)),
    children: [
      { type: 'tableRow', children: columns.map((c) => cell(titleContent(c.title))) },
      ...records.map((values) => ({
        type: 'tableRow' as const,
        children: columns.map((c) => cell(cellContent(c, values[c.id], fragmentNodes, hrefOf))),
      })),
    ],
  };
  return [table];
}

/** A header title; its line breaks (`<br>` in the header cell) are written back as `<br>`. */
function titleContent(title: string | undefined): PhrasingContent[] {
  return (title ?? '')
    .split('\n')
    .flatMap((part, i): PhrasingContent[] => [...(i ? [{ type: 'html' as const, value: '<br>' }] : []), ...(part ? [{ type: 'text' as const, value: part }] : [])]);
}

/** A cell's content on one line: paragraphs joined by `<br>`, other blocks by their text. */
function cellContent(column: Definition, value: unknown, fragmentNodes: (name: unknown) => DocumentBlock[], hrefOf: HrefOf): PhrasingContent[] {
  if (value === undefined || value === null) return [];
  switch (column.type) {
    case 'text':
      return fragmentNodes(value).flatMap((block, i): PhrasingContent[] => {
        const kept = keptSource(block, hrefOf);
        const content: PhrasingContent[] =
          kept !== undefined
            ? [{ type: 'html', value: kept }]
            : block.type === 'paragraph' || block.type.startsWith('heading')
              ? printInlines(block.nodes, hrefOf)
              : [{ type: 'text', value: inlineText(block.nodes) }];
        const oneLine = content.map((c) => (c.type === 'break' ? ({ type: 'html', value: '<br>' } as PhrasingContent) : c));
        return [...(i ? [{ type: 'html' as const, value: '<br>' }] : []), ...oneLine];
      });
    case 'content-ref':
      return [{ type: 'link', url: hrefOf(value as ContentRef), children: [{ type: 'text', value: hrefOf(value as ContentRef) }] }];
    case 'files':
      return (Array.isArray(value) ? value : []).map((file) => ({
        type: 'link',
        url: hrefOf({ kind: 'file', file: String(file) }),
        children: [{ type: 'text', value: String(file) }],
      }));
    case 'checkbox':
      return [{ type: 'text', value: value ? '☑' : '☐' }];
    default:
      return typeof value === 'object' ? [] : [{ type: 'text', value: String(value) }];
  }
}

/** Columns with widths: Git Sync's HTML form (`<th width>`); paragraphs of a cell joined by `<br>`. */
function htmlGrid(
  columns: Definition[],
  records: Array<Record<string, unknown>>,
  widths: Record<string, number>,
  fragmentNodes: (name: unknown) => DocumentBlock[],
  hrefOf: HrefOf,
): string {
  const align = (c: Definition) => (c.textAlignment === 'center' || c.textAlignment === 'right' ? ` align="${c.textAlignment}"` : '');
  const head = columns
    .map((c) => {
      const width = typeof widths[c.id] === 'number' ? ` width="${widths[c.id]}"` : '';
      const title = (c.title ?? '')
        .split('\n')
        .map((part) => inlinesToHtml([textNode(part)], hrefOf))
        .join('<br>');
      return `<th${width}${align(c)}>${title}</th>`;
    })
    .join('');
  const rows = records
    .map(
      (values) =>
        `<tr>${columns
          .map(
            (c) =>
              `<td${align(c)}>${fragmentNodes(values[c.id])
                .map((n) => keptSource(n, hrefOf) ?? inlinesToHtml(n.nodes, hrefOf))
                .join('<br>')}</td>`,
          )
          .join('')}</tr>`,
    )
    .join('');
  return `<table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
}

function textNode(value: string) {
  return { object: 'text' as const, leaves: [{ object: 'leaf' as const, text: value, marks: [] }] };
}
