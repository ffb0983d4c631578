import type { Code } from 'mdast';
import type { BlockGroup, BlockItem } from '../liquid-blocks';
import { block, fragment, paragraph } from '../nodes';
import { isAbsoluteUrl, linkRef } from '../refs';
import type { DocumentBlock } from '../types';
import { captionParagraph, codeBlock } from './simple-blocks';
import type { ParseContext } from './context';
import { fit } from './fit';

const HINT_STYLES = new Set(['info', 'success', 'warning', 'danger']);

/** A `{% tag %}` / `<details>` group → its document block(s). */
/** `convertItems` converts the blocks inside a group (blocks.ts passes itself: groups nest). */
type ConvertItems = (items: BlockItem[], ctx: ParseContext) => DocumentBlock[];

export function convertGroup(group: BlockGroup, ctx: ParseContext, convertItems: ConvertItems): DocumentBlock[] {
  const { attrs } = group;
  switch (group.name) {
    case 'hint':
      return [block('hint', { style: HINT_STYLES.has(attrs.style) ? attrs.style : 'info' }, nonEmpty(fit('hint', convertItems(group.children, ctx))))];
    case 'tabs':
      return parts(group, 'tab', 'tabs', 'tabs-item', (g) => ({ title: g.attrs.title ?? '' }), ctx, convertItems);
    case 'stepper':
      return parts(group, 'step', 'stepper', 'stepper-step', () => ({}), ctx, convertItems);
    case 'columns':
      return parts(group, 'column', 'columns', 'column', columnData, ctx, convertItems);
    case 'code':
      return codeGroup(group, ctx, convertItems);
    case 'embed':
      return attrs.url ? [block('embed', { url: attrs.url })] : [];
    case 'file': {
      if (!attrs.src) return [];
      const ref = isAbsoluteUrl(attrs.src) ? null : ctx.options.resolveFile?.(attrs.src);
      if (ref) return [block('file', { ref })];
      // a file block needs a file of the space: a source it does not hold stays a card to the source as written
      return [block('content-ref', { ref: { kind: 'url', url: attrs.src } })];
    }
    case 'content-ref': {
      // a target the space does not hold is kept as written (a url reference printed back verbatim)
      const ref = attrs.url ? (linkRef(attrs.url, ctx.options) ?? { kind: 'url', url: attrs.url }) : null;
      return ref ? [block('content-ref', { ref })] : [];
    }
    case 'details': {
      const title = captionParagraph(group.summary ?? '', ctx);
      const body = nonEmpty(fit('expandable-body', convertItems(group.children, ctx)));
      const expandable = block('expandable', attrs.open ? { defaultExpanded: true } : {});
      return [{ ...expandable, fragments: [fragment('expandable-title', [title], 'expandable-title'), fragment('expandable-body', body, 'expandable-body')] }];
    }
    default:
      // a stray `{% tab %}` / `{% step %}` / `{% column %}` outside its parent: keep its content
      return convertItems(group.children, ctx);
  }
}

/** tabs/stepper/columns: each child group becomes one item; loose content joins the previous item. */
function parts(
  group: BlockGroup,
  child: string,
  type: string,
  itemType: string,
  dataOf: (g: BlockGroup) => Record<string, unknown>,
  ctx: ParseContext,
  convertItems: ConvertItems,
): DocumentBlock[] {
  const items: Array<{ data: Record<string, unknown>; content: BlockItem[] }> = [];
  for (const item of group.children) {
    if (item.type === 'group' && item.name === child) items.push({ data: dataOf(item), content: [...item.children] });
    else if (items.length) items[items.length - 1].content.push(item);
    else if (!(item.type === 'paragraph' && !item.children.length)) items.push({ data: dataOf({ ...group, attrs: {} }), content: [item] });
  }
  if (!items.length) return [];
  return [
    block(
      type,
      {},
      items.map((i) => block(itemType, i.data, nonEmpty(fit(itemType, convertItems(i.content, ctx))))),
    ),
  ];
}

function codeGroup(group: BlockGroup, ctx: ParseContext, convertItems: ConvertItems): DocumentBlock[] {
  const at = group.children.findIndex((c) => c.type === 'code');
  if (at < 0) return convertItems(group.children, ctx);
  const { attrs } = group;
  const extra: Record<string, unknown> = {};
  if (attrs.title) extra.title = attrs.title;
  if (attrs.overflow === 'wrap' || attrs.overflow === 'scroll') extra.overflow = attrs.overflow;
  if (attrs.lineNumbers === 'true' || attrs.lineNumbers === 'false') extra.lineNumbers = attrs.lineNumbers === 'true';
  if (attrs.fullWidth === 'true' || attrs.fullWidth === 'false') extra.fullWidth = attrs.fullWidth === 'true';
  const rest = group.children.filter((_, i) => i !== at);
  return [codeBlock(group.children[at] as Code, extra), ...convertItems(rest, ctx)];
}

function columnData(group: BlockGroup): Record<string, unknown> {
  const width = length(group.attrs.width ?? '');
  return width === undefined ? {} : { width };
}

/** `50%` → `{value: 50, unit: '%'}`, a bare number → the number (the spec's `Length`). */
function length(value: string): number | { value: number; unit: string } | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(%|px|em|rem)?\s*$/.exec(value);
  if (!m) return undefined;
  return m[2] ? { value: Number(m[1]), unit: m[2] } : Number(m[1]);
}

function nonEmpty(blocks: DocumentBlock[]): DocumentBlock[] {
  return blocks.length ? blocks : [paragraph([])];
}
