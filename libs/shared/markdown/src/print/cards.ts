import { escapeAttribute, openTag } from '../html';
import { isAbsoluteUrl } from '../refs';
import type { ContentRef, DocumentBlock } from '../types';
import { keptSource } from '../verbatim';
import { inlinesToHtml, type HrefOf } from './inlines';

interface CardsDefinition {
  id: string;
  title?: string;
  type: string;
  multiple?: boolean;
  options?: Array<{ value: string; label: string }>;
}

interface CardsData {
  view?: { columns?: string[]; targetDefinition?: string; coverDefinition?: string; coverDefinitionDark?: string; cardSize?: string };
  definition?: Record<string, CardsDefinition>;
  fullWidth?: boolean;
}

/** A cards table in GitBook's HTML form (see parse/cards.ts): every column, hidden or not, in definition order. */
export function printCards(b: DocumentBlock, records: Array<Record<string, unknown>>, hrefOf: HrefOf): string {
  const data = b.data as CardsData;
  const view = data.view ?? {};
  const definitions = Object.values(data.definition ?? {});
  const visible = new Set(view.columns ?? []);
  const head = definitions
    .map((d) => {
      const open = openTag('th', [
        ['data-hidden', !visible.has(d.id)],
        ['data-card-target', view.targetDefinition === d.id],
        ['data-card-cover', view.coverDefinition === d.id],
        ['data-card-cover-dark', view.coverDefinitionDark === d.id],
        ['data-type', ['content-ref', 'files', 'image', 'number'].includes(d.type) ? d.type : undefined],
      ]);
      const select =
        d.type === 'select'
          ? `<select${d.multiple ? ' multiple' : ''}>${(d.options ?? []).map((o) => `<option value="${escapeAttribute(o.value)}">${text(o.label)}</option>`).join('')}</select>`
          : '';
      return `${open}${text(d.title ?? '')}${select}</th>`;
    })
    .join('');
  const rows = records.map((values) => `<tr>${definitions.map((d) => cell(b, d, values[d.id], hrefOf)).join('')}</tr>`).join('');
  const table = openTag('table', [
    ['data-card-size', view.cardSize === 'large' ? 'large' : undefined],
    ['data-view', 'cards'],
    ['data-full-width', typeof data.fullWidth === 'boolean' ? String(data.fullWidth) : undefined],
  ]);
  return `${table}<thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
}

function cell(b: DocumentBlock, d: CardsDefinition, value: unknown, hrefOf: HrefOf): string {
  if (value === undefined || value === null) return '<td></td>';
  switch (d.type) {
    case 'content-ref':
      return `<td>${link(hrefOf(value as ContentRef))}</td>`;
    case 'image': {
      const record = value as { ref?: ContentRef; objectFit?: string; kind?: string };
      const ref = record.ref ?? (record.kind ? (record as ContentRef) : undefined);
      if (!ref) return '<td></td>';
      return `${openTag('td', [['data-object-fit', record.objectFit]])}${link(hrefOf(ref))}</td>`;
    }
    case 'files':
      return `<td>${(Array.isArray(value) ? value : []).map((f) => link(hrefOf({ kind: 'file', file: String(f) }))).join('')}</td>`;
    case 'number':
      return `<td>${typeof value === 'number' ? value : ''}</td>`;
    case 'select':
      return `<td>${text((Array.isArray(value) ? value : []).join(', '))}</td>`;
    default: {
      const blocks = b.fragments?.find((f) => f.fragment === value)?.nodes ?? [];
      let html = '';
      blocks.forEach((block, i) => {
        const level = /^heading-([1-3])$/.exec(block.type)?.[1];
        if (level) html += `<h${Number(level) + 1}>${inlinesToHtml(block.nodes, hrefOf)}</h${Number(level) + 1}>`;
        else html += `${i && blocks[i - 1].type === 'paragraph' ? '<br>' : ''}${keptSource(block, hrefOf) ?? inlinesToHtml(block.nodes, hrefOf)}`;
      });
      return `<td>${html}</td>`;
    }
  }
}

/** A link to a target or file as GitBook writes it in a card: the file or page name as text, an absolute URL in full. */
function link(href: string): string {
  const label = isAbsoluteUrl(href) ? href : (href.split(/[?#]/)[0].split('/').filter(Boolean).pop() ?? href);
  return `<a href="${escapeHref(href)}">${text(label)}</a>`;
}

/** GitBook writes `&` in URLs as `&#x26;`. */
function escapeHref(href: string): string {
  return href.replace(/&/g, '&#x26;').replace(/"/g, '&#x22;').replace(/</g, '&#x3C;').replace(/>/g, '&#x3E;');
}

function text(value: string): string {
  return inlinesToHtml([{ object: 'text', leaves: [{ object: 'leaf', text: value, marks: [] }] }], (r) => String(r));
}
