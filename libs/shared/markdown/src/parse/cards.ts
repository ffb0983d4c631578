import type { Element, ElementContent } from 'hast';
import { attr, descendants, has, htmlText, innerSource, isElement, sourceSlice } from '../html-tree';
import { block, fragment, paragraph } from '../nodes';
import { imageRef, isAbsoluteUrl, linkRef } from '../refs';
import type { ContentRef, DocumentBlock, DocumentFragment } from '../types';
import type { ParseContext } from './context';
import { convertInlines } from './inlines';
import { captionParagraph, keptParagraph } from './simple-blocks';
import { orderIndex } from './tables';
import { parseMarkdown } from '../remark';
import type { PhrasingContent } from 'mdast';

/** Column types a cards table's `<th data-type>` names; any other column holds text. */
const TYPED = new Set(['content-ref', 'files', 'image', 'number']);

/**
 * `<table data-view="cards">` as GitBook writes it: a header row whose `<th>` carry `data-hidden`, `data-card-target`,
 * `data-card-cover`, `data-card-cover-dark` and `data-type` (`content-ref`, `image`, `files`; a `<select>` in the header
 * is a select column), then one `<tr>` per card. Text cells hold headings (`<h4>`), paragraphs and inline HTML
 * (`<strong>`, icons); image cells a link to the image (`data-object-fit` on the `<td>`).
 */
export function cardsTable(table: Element, source: string, ctx: ParseContext): DocumentBlock {
  const headers = descendants(table, 'thead').flatMap((head) => descendants(head, 'th'));
  const ids = headers.map((_, i) => `c${i}`);
  const definition: Record<string, unknown> = {};
  const columns: string[] = [];
  const view: Record<string, unknown> = { type: 'cards', columns, cardSize: attr(table, 'data-card-size') === 'large' ? 'large' : 'medium' };
  headers.forEach((th, i) => {
    const id = ids[i];
    const select = descendants(th, 'select')[0];
    const declared = attr(th, 'data-type') ?? '';
    const title = htmlText(innerSource(th, source).replace(/<select[\s\S]*<\/select>/i, ''));
    if (select) {
      const options = descendants(select, 'option').map((o) => ({
        value: attr(o, 'value') ?? '',
        label: htmlText(innerSource(o, source)),
        color: attr(o, 'data-color') ?? 'default',
      }));
      definition[id] = { id, title, type: 'select', multiple: has(select, 'multiple'), options };
    } else definition[id] = TYPED.has(declared) ? { id, title, type: declared } : { id, title, type: 'text', textAlignment: 'left' };
    if (!has(th, 'data-hidden')) columns.push(id);
    if (has(th, 'data-card-target')) view.targetDefinition = id;
    if (has(th, 'data-card-cover')) view.coverDefinition = id;
    if (has(th, 'data-card-cover-dark')) view.coverDefinitionDark = id;
  });
  const records: Record<string, unknown> = {};
  const fragments: DocumentFragment[] = [];
  const rows = descendants(table, 'tbody').flatMap((body) => descendants(body, 'tr'));
  rows.forEach((row, r) => {
    const cells = row.children.filter((c): c is Element => isElement(c, 'td', 'th'));
    const values: Record<string, unknown> = {};
    ids.forEach((id, c) => {
      const td = cells[c];
      const def = definition[id] as { type: string };
      const hrefs = td ? descendants(td, 'a').map((a) => attr(a, 'href') ?? '') : [];
      if (def.type === 'content-ref') {
        // a target the space does not hold is kept as written, like `{% content-ref %}`
        const ref: ContentRef | null = hrefs[0] ? (linkRef(hrefs[0], ctx.options) ?? { kind: 'url', url: hrefs[0] }) : null;
        if (ref) values[id] = ref;
      } else if (def.type === 'image') {
        if (hrefs[0]) {
          const fit = td ? attr(td, 'data-object-fit') : undefined;
          values[id] = fit === 'contain' || fit === 'fill' || fit === 'cover' ? { ref: imageRef(hrefs[0], ctx.options), objectFit: fit } : { ref: imageRef(hrefs[0], ctx.options) };
        }
      } else if (def.type === 'files') {
        const files = hrefs.map((h) => (isAbsoluteUrl(h) ? null : ctx.options.resolveFile?.(h)?.file)).filter((f): f is string => !!f);
        if (files.length) values[id] = files;
      } else if (def.type === 'number') {
        const n = Number(td ? htmlText(innerSource(td, source)) : '');
        if (td && htmlText(innerSource(td, source)) !== '' && Number.isFinite(n)) values[id] = n;
      } else if (def.type === 'select') {
        const chosen = td ? htmlText(innerSource(td, source)) : '';
        if (chosen) values[id] = chosen.split(/\s*,\s*/);
      } else {
        const name = `r${r}${id}`;
        values[id] = name;
        fragments.push(fragment(name, td ? cellBlocks(td, source, ctx) : [paragraph([])]));
      }
    });
    records[`r${r}`] = { orderIndex: orderIndex(r), values };
  });
  const data: Record<string, unknown> = { view, records, definition };
  if (has(table, 'data-full-width')) data.fullWidth = attr(table, 'data-full-width') !== 'false';
  return { ...block('table', data), fragments };
}

/** A text cell: `<h1>`–`<h6>` become headings, `<p>` paragraphs, runs of inline HTML / Markdown one paragraph each. */
function cellBlocks(td: Element, source: string, ctx: ParseContext): DocumentBlock[] {
  const out: DocumentBlock[] = [];
  let run: ElementContent[] = [];
  const flush = () => {
    const snippet = sourceSlice(run, source).trim();
    if (snippet) out.push(keptParagraph(snippet, ctx));
    run = [];
  };
  for (const child of td.children) {
    if (isElement(child, 'h1', 'h2', 'h3', 'h4', 'h5', 'h6')) {
      flush();
      const depth = Number(child.tagName.slice(1));
      const type = depth <= 2 ? 'heading-1' : depth === 3 ? 'heading-2' : 'heading-3';
      const inner = innerSource(child, source);
      const phrasing = parseMarkdown(inner).children.flatMap((c): PhrasingContent[] =>
        c.type === 'paragraph' ? c.children : c.type === 'html' ? [{ type: 'html', value: c.value }] : [],
      );
      out.push(block(type, {}, convertInlines(phrasing, { ...ctx, source: inner })));
    } else if (isElement(child, 'p')) {
      flush();
      out.push(captionParagraph(innerSource(child, source).trim(), ctx));
    } else run.push(child);
  }
  flush();
  return out.length ? out : [paragraph([])];
}
