import type { Element } from 'hast';
import type { DocumentBlock, DocumentFragment, RenderContext } from './types';
import { Child, el, textOf } from './hast';
import { colorClass, imageSrc } from './inlines';

interface Definition {
  id?: string;
  title?: string;
  type?: string;
  textAlignment?: string;
  options?: Array<{ value: string; label: string; color?: string }>;
  max?: number;
}
interface TableRecord {
  orderIndex?: string;
  values?: Record<string, unknown>;
}
interface View {
  type?: string;
  columns?: string[];
  hideHeader?: boolean;
  cardSize?: string;
  targetDefinition?: string;
  coverDefinition?: string;
  coverDefinitionDark?: string;
  hideColumnTitle?: boolean;
  columnWidths?: Record<string, number>;
}
interface CellMerge {
  anchor?: { record?: string; column?: string };
  rowSpan?: number;
  colSpan?: number;
}

type RenderBlocks = (nodes: DocumentBlock[]) => Child[];

/** Records in their order (`orderIndex`, then id), with their ids. */
function orderedRecords(data: Record<string, unknown>): Array<[string, TableRecord]> {
  const records = Object.entries((data.records ?? {}) as Record<string, TableRecord>);
  return records.sort(([ia, a], [ib, b]) => (a.orderIndex ?? '').localeCompare(b.orderIndex ?? '') || ia.localeCompare(ib));
}

function columnsOf(data: Record<string, unknown>, view: View): Array<[string, Definition]> {
  const definitions = (data.definition ?? {}) as Record<string, Definition>;
  const ids = view.columns?.length ? view.columns : Object.keys(definitions);
  return ids.filter((id) => definitions[id]).map((id) => [id, definitions[id]]);
}

/** A table block: grid view as a `<table>`, cards view as a list of cards. */
export function renderTable(block: DocumentBlock, ctx: RenderContext, renderBlocks: RenderBlocks): Child {
  const data = block.data ?? {};
  const view = (data.view ?? { type: 'grid' }) as View;
  const fragments = new Map((block.fragments ?? []).map((f) => [f.fragment, f]));
  const cell = (def: Definition, value: unknown) => renderCell(def, value, fragments, ctx, renderBlocks);
  return view.type === 'cards' ? renderCards(data, view, ctx, cell) : renderGrid(block, data, view, cell);
}

function renderGrid(block: DocumentBlock, data: Record<string, unknown>, view: View, cell: (def: Definition, value: unknown) => Child[]): Child {
  const columns = columnsOf(data, view);
  const records = orderedRecords(data);
  // Merged cells: the anchor cell spans, the cells it covers are not written.
  const spans = new Map<string, { rowSpan: number; colSpan: number }>();
  const covered = new Set<string>();
  const rowIndex = new Map(records.map(([id], i) => [id, i]));
  const colIndex = new Map(columns.map(([id], i) => [id, i]));
  for (const m of (data.cellMerges ?? []) as CellMerge[]) {
    const r = rowIndex.get(m.anchor?.record ?? '');
    const c = colIndex.get(m.anchor?.column ?? '');
    if (r === undefined || c === undefined) continue;
    const rowSpan = Math.max(1, Math.min(Number(m.rowSpan) || 1, records.length - r));
    const colSpan = Math.max(1, Math.min(Number(m.colSpan) || 1, columns.length - c));
    spans.set(`${r}:${c}`, { rowSpan, colSpan });
    for (let i: number = r; i < r + rowSpan; i++) for (let j: number = c; j < c + colSpan; j++) if (i !== r || j !== c) covered.add(`${i}:${j}`);
  }
  const align = (def: Definition) => (def.textAlignment === 'center' || def.textAlignment === 'right' ? def.textAlignment : undefined);
  const head = view.hideHeader
    ? undefined
    : el(
        'thead',
        {},
        el(
          'tr',
          {},
          columns.map(([, def]) => el('th', { scope: 'col', className: align(def) ? [`align-${align(def)}`] : undefined }, def.title ?? '')),
        ),
      );
  const body = el(
    'tbody',
    {},
    records.map(([, record], r) =>
      el(
        'tr',
        {},
        columns.flatMap(([id, def], c) => {
          if (covered.has(`${r}:${c}`)) return [];
          const span = spans.get(`${r}:${c}`);
          return [
            el(
              'td',
              {
                className: align(def) ? [`align-${align(def)}`] : undefined,
                rowSpan: span && span.rowSpan > 1 ? span.rowSpan : undefined,
                colSpan: span && span.colSpan > 1 ? span.colSpan : undefined,
              },
              cell(def, record.values?.[id]),
            ),
          ];
        }),
      ),
    ),
  );
  const caption = columns.length ? `Table: ${columns.map(([, d]) => d.title ?? '').join(', ')}` : 'Table';
  // The wrapper scrolls a wide table; it is focusable so a keyboard can scroll it, and labelled.
  return el(
    'div',
    { className: ['table-wrap', data.fullWidth ? 'full-width' : undefined].filter(Boolean) as string[], role: 'region', ariaLabel: caption, tabIndex: 0, dataBlock: block.type },
    el('table', {}, head, body),
  );
}

function renderCards(data: Record<string, unknown>, view: View, ctx: RenderContext, cell: (def: Definition, value: unknown) => Child[]): Child {
  const columns = columnsOf(data, view).filter(([id]) => id !== view.targetDefinition && id !== view.coverDefinition && id !== view.coverDefinitionDark);
  const cards = orderedRecords(data).map(([id, record]) => {
    const values = record.values ?? {};
    // the dark cover replaces the light one in the dark theme; without a dark cover the light one shows in both
    const coverDark = view.coverDefinitionDark ? coverImage(values[view.coverDefinitionDark], ctx, 'only-dark') : undefined;
    const cover = view.coverDefinition ? coverImage(values[view.coverDefinition], ctx, coverDark ? 'only-light' : undefined) : undefined;
    const target = view.targetDefinition ? targetOf(values[view.targetDefinition], ctx) : undefined;
    const body = columns.map(([colId, def]) =>
      el(
        'div',
        { className: ['card-field'] },
        view.hideColumnTitle || !def.title ? undefined : el('div', { className: ['card-field-title'] }, def.title),
        cell(def, values[colId]),
      ),
    );
    const label = (columns[0] ? textOf(cell(columns[0][1], values[columns[0][0]])) : '') || target?.title || 'Card';
    return el(
      'li',
      { className: ['card', target ? 'card-linked' : undefined].filter(Boolean) as string[], dataRecord: id },
      cover || coverDark ? el('div', { className: ['card-cover'] }, cover, coverDark && cover ? coverDark : coverDark) : undefined,
      el('div', { className: ['card-body'] }, body),
      // One link stretched over the card (CSS), so the card's own links stay valid HTML.
      target ? el('a', { className: ['card-link'], href: target.href, ariaLabel: label }) : undefined,
    );
  });
  return el(
    'ul',
    { className: ['cards', `cards-${view.cardSize === 'large' ? 'large' : 'medium'}`, data.fullWidth ? 'full-width' : undefined].filter(Boolean) as string[], dataBlock: 'table' },
    cards,
  );
}

function coverImage(value: unknown, ctx: RenderContext, theme: string | undefined): Element | undefined {
  // A files column holds file ids; an image column a reference (or one with its settings).
  const first = Array.isArray(value) ? value[0] : value;
  const v = (typeof first === 'string' ? { kind: 'file', file: first } : first) as
    { kind?: string; ref?: { kind?: string; file?: string; url?: string }; alt?: string; objectFit?: string } | undefined;
  if (!v) return undefined;
  const ref = v.ref ?? (v as { kind?: string; file?: string; url?: string });
  const src = imageSrc(ref, ctx);
  if (!src) return undefined;
  return el('img', {
    src: src.url,
    alt: v.alt ?? '',
    className: [theme, v.objectFit ? `fit-${v.objectFit}` : undefined].filter(Boolean).length
      ? ([theme, v.objectFit ? `fit-${v.objectFit}` : undefined].filter(Boolean) as string[])
      : undefined,
    loading: 'lazy',
    decoding: 'async',
    width: src.width,
    height: src.height,
  });
}

function targetOf(value: unknown, ctx: RenderContext) {
  const ref = value as { kind?: string } | undefined;
  return ref && typeof ref === 'object' && typeof ref.kind === 'string' ? ctx.link(ref as never) : undefined;
}

function renderCell(def: Definition, value: unknown, fragments: Map<string, DocumentFragment>, ctx: RenderContext, renderBlocks: RenderBlocks): Child[] {
  if (value === undefined || value === null || value === '') return [];
  switch (def.type) {
    case 'text': {
      // A text cell's value names the fragment holding its blocks.
      const fragment = typeof value === 'string' ? fragments.get(value) : undefined;
      return fragment ? renderBlocks(fragment.nodes) : [String(value)].map((v) => el('span', {}, v));
    }
    case 'number':
      return [el('span', { className: ['number'] }, String(value))];
    case 'checkbox':
      return [el('input', { type: 'checkbox', checked: value === true, disabled: true, ariaLabel: value === true ? 'Yes' : 'No' })];
    case 'rating': {
      const max = Math.max(1, Math.min(Number(def.max) || 5, 10));
      const n = Math.max(0, Math.min(Number(value) || 0, max));
      return [el('span', { className: ['rating'], role: 'img', ariaLabel: `${n} out of ${max}` }, '★'.repeat(n) + '☆'.repeat(max - n))];
    }
    case 'select': {
      const chosen = Array.isArray(value) ? value : [value];
      return chosen.map((v) => {
        const option = def.options?.find((o) => o.value === v);
        return el('span', { className: ['tag', colorClass('bg', option?.color)].filter(Boolean) as string[] }, option?.label ?? String(v));
      });
    }
    case 'users':
      return (Array.isArray(value) ? value : [value]).map((u) => el('span', { className: ['mention'] }, `@${String(u)}`));
    case 'content-ref': {
      const target = targetOf(value, ctx);
      return target ? [el('a', { href: target.href }, target.title ?? target.href)] : [el('span', { className: ['broken-link'] }, 'Missing link')];
    }
    case 'files':
      return (Array.isArray(value) ? value : [value]).map((fileId) => {
        const file = ctx.file(String(fileId));
        if (!file) return el('span', { className: ['broken-link'] }, 'Missing file');
        return file.contentType.startsWith('image/')
          ? el('img', { src: file.url, alt: file.name, loading: 'lazy', decoding: 'async', width: file.dimensions?.width, height: file.dimensions?.height })
          : el('a', { href: file.url }, file.name);
      });
    case 'image': {
      const img = coverImage(value, ctx, 'table-image');
      return img ? [img] : [];
    }
    default:
      return [el('span', { className: ['unsupported', 'unsupported-inline'] }, typeof value === 'object' ? `[${def.type ?? 'value'}]` : String(value))];
  }
}
