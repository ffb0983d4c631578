import GithubSlugger from 'github-slugger';
import type { Element } from 'hast';
import type { Document, DocumentBlock, DocumentFragment, DocumentNode, Heading, RenderContext } from './types';
import { Child, el, textOf } from './hast';
import { imageSrc, renderInlines, unsupportedInline } from './inlines';
import { highlightLines, languageOf, lineElement } from './code';
import { blockMath } from './math';
import { renderTable } from './table';
import { liftApiBlocks } from './openapi-blocks';

const HINT_LABELS: Record<string, string> = { info: 'Info', success: 'Success', warning: 'Warning', danger: 'Danger' };
const HINT_ICONS: Record<string, string> = { info: 'ℹ', success: '✓', warning: '⚠', danger: '⛔' };

/** How deep reusable contents may include one another before the reader stops (a cycle). */
const MAX_REUSE_DEPTH = 3;

/** One document's rendering: heading ids stay unique across the page, element ids too. */
export class DocumentRenderer {
  readonly headings: Heading[] = [];
  private readonly slugger = new GithubSlugger();
  private ids = 0;
  private reuseDepth = 0;

  constructor(private readonly ctx: RenderContext) {}

  /** A unique id on the page for elements that reference one another (tabs, annotations). */
  private nextId(prefix: string): string {
    this.ids += 1;
    return `${prefix}-${this.ids}`;
  }

  document(doc: Document): Child[] {
    return this.blocks(doc.nodes);
  }

  blocks(nodes: DocumentNode[] | undefined): Child[] {
    const out: Child[] = [];
    for (const node of liftApiBlocks(nodes ?? [])) {
      if (node.object === 'block') out.push(...this.block(node));
      // Text or inlines directly in a container (lenient documents): shown as a paragraph.
      else out.push(el('p', {}, renderInlines([node], this.ctx)));
    }
    return out;
  }

  private fragment(block: DocumentBlock, name: string): DocumentFragment | undefined {
    return block.fragments?.find((f) => f.fragment === name || f.type === name);
  }

  private inlines(block: DocumentBlock): Child[] {
    return renderInlines(block.nodes, this.ctx);
  }

  block(block: DocumentBlock): Child[] {
    const data = block.data ?? {};
    switch (block.type) {
      case 'paragraph': {
        const align = alignClass(data.align);
        return [el('p', { className: align ? [align] : undefined }, this.inlines(block))];
      }
      case 'heading-1':
      case 'heading-2':
      case 'heading-3':
        return [this.heading(block)];
      case 'blockquote':
        return [el('blockquote', {}, this.blocks(block.nodes))];
      case 'divider':
        return [el('hr')];
      case 'list-unordered':
        return [el('ul', {}, this.blocks(block.nodes))];
      case 'list-ordered': {
        const start = Number(data.start);
        return [el('ol', { start: Number.isInteger(start) && start !== 1 ? start : undefined }, this.blocks(block.nodes))];
      }
      case 'list-tasks':
        return [
          el(
            'ul',
            { className: ['task-list'] },
            (block.nodes ?? []).flatMap((n) => (n.object === 'block' && n.type === 'list-item' ? [this.taskItem(n)] : this.blocks([n]))),
          ),
        ];
      case 'list-item':
        return [el('li', {}, this.blocks(block.nodes))];
      case 'code':
        return [this.code(block)];
      case 'code-line':
        return [lineElement(this.inlines(block), data.highlighted === true)];
      case 'hint': {
        const style = typeof data.style === 'string' && HINT_LABELS[data.style] ? data.style : 'info';
        return [
          el(
            'div',
            { className: ['hint', `hint-${style}`], role: 'note', ariaLabel: HINT_LABELS[style] },
            el('span', { className: ['hint-icon'], ariaHidden: 'true' }, HINT_ICONS[style]),
            el('div', { className: ['hint-body'] }, this.blocks(block.nodes)),
          ),
        ];
      }
      case 'math':
        return [blockMath(String(data.formula ?? ''))];
      case 'images':
        return [this.images(block)];
      case 'image':
        return [el('figure', { className: ['images'] }, this.image(block))];
      case 'drawing':
        return [this.drawing(block)];
      case 'file':
        return [this.file(block)];
      case 'embed':
        return [this.embed(block)];
      case 'content-ref':
        return [this.contentRef(block)];
      case 'reusable-content':
        return [this.reusableContent(block)];
      case 'expandable':
        return [this.expandable(block)];
      case 'tabs':
        return [this.tabs(block)];
      case 'tabs-item':
        // A tab outside its tabs: its title and content.
        return [el('section', { className: ['tab-orphan'] }, el('p', {}, el('strong', {}, String(data.title ?? ''))), this.blocks(block.nodes))];
      case 'stepper':
        return [el('ol', { className: ['stepper'] }, this.blocks(block.nodes))];
      case 'stepper-step':
        return [el('li', { className: ['step'] }, el('div', { className: ['step-body'] }, this.blocks(block.nodes)))];
      case 'columns':
        return [el('div', { className: ['columns', data.fullWidth ? 'full-width' : undefined].filter(Boolean) as string[] }, this.blocks(block.nodes))];
      case 'column':
        return [this.column(block)];
      case 'table':
        return [renderTable(block, this.ctx, (nodes) => this.inCell(() => this.blocks(nodes)))];
      case 'if': {
        const shown = this.ctx.condition?.(String(data.expression ?? ''));
        return shown === true ? this.blocks(block.nodes) : [];
      }
      case 'updates':
        return [el('div', { className: ['updates'] }, this.blocks(block.nodes))];
      case 'update':
        return [this.update(block)];
      case 'prompt':
        return [el('div', { className: ['prompt'] }, el('p', { className: ['prompt-description'] }, String(data.description ?? '')), this.blocks(block.nodes))];
      case 'integration':
        return [this.placeholder(block, `Integration block “${String(data.integration ?? 'unknown')}”`, typeof data.url === 'string' ? data.url : undefined)];
      case 'swagger':
      case 'openapi-operation':
      case 'openapi-webhook':
      case 'openapi-schemas':
        return [this.openapi(block)];
      default:
        return [this.placeholder(block, `A “${block.type}” block`)];
    }
  }

  /** A block the reader cannot show: a visible note with what it is (and a link when it has one). */
  private placeholder(block: DocumentBlock, what: string, url?: string): Element {
    return el(
      'div',
      { className: ['unsupported', 'unsupported-block'], role: 'note', dataBlock: block.type },
      `${what} cannot be shown here.`,
      url && /^https?:\/\//i.test(url) ? [' ', el('a', { href: url, rel: ['noopener', 'nofollow'] }, 'Open it')] : undefined,
    );
  }

  /** Headings in table cells (a card's `<h4>` title) are part of the cell: no anchor, not in the table of contents. */
  private cellDepth = 0;

  private inCell<T>(render: () => T): T {
    this.cellDepth++;
    try {
      return render();
    } finally {
      this.cellDepth--;
    }
  }

  private heading(block: DocumentBlock): Element {
    const level = Number(block.type.slice(-1));
    const content = this.inlines(block);
    if (this.cellDepth) return el(`h${level + 1}`, { className: alignClass(block.data?.align) ? [alignClass(block.data?.align)!] : undefined }, content);
    const label = textOf(content).trim();
    const wanted = typeof block.data?.id === 'string' && block.data.id ? block.data.id : label || 'section';
    const id = this.slugger.slug(wanted);
    this.headings.push({ id, level, text: label });
    const align = alignClass(block.data?.align) ? [alignClass(block.data?.align)!] : undefined;
    return el(`h${level + 1}`, { id, className: align }, content, el('a', { className: ['heading-anchor'], href: `#${id}`, ariaLabel: `Link to “${label}”` }, '#'));
  }

  private taskItem(block: DocumentBlock): Element {
    const checked = block.data?.checked === true;
    return el(
      'li',
      { className: ['task', checked ? 'task-done' : undefined].filter(Boolean) as string[] },
      el('input', { type: 'checkbox', checked, disabled: true, ariaLabel: checked ? 'Done' : 'Not done' }),
      el('div', { className: ['task-body'] }, this.blocks(block.nodes)),
    );
  }

  private code(block: DocumentBlock): Element {
    const data = block.data ?? {};
    const lines = (block.nodes ?? []).filter((n): n is DocumentBlock => n.object === 'block' && n.type === 'code-line');
    const source = lines.map((l) => textOf(renderInlines(l.nodes, this.ctx))).join('\n');
    const highlighted = highlightLines(source, typeof data.syntax === 'string' ? data.syntax : undefined);
    const syntax = typeof data.syntax === 'string' ? data.syntax : undefined;
    const lang = languageOf(syntax);
    const rendered = highlighted.flatMap((line, i) => [lineElement(line, lines[i]?.data?.highlighted === true), ...(i < highlighted.length - 1 ? ['\n'] : [])]);
    const classes = ['code-block', data.lineNumbers ? 'line-numbers' : undefined, data.overflow === 'wrap' ? 'wrap' : undefined, data.fullWidth ? 'full-width' : undefined];
    const title = typeof data.title === 'string' && data.title ? data.title : undefined;
    return el(
      'figure',
      { className: classes.filter(Boolean) as string[], dataSyntax: syntax },
      title ? el('figcaption', { className: ['code-title'] }, title) : undefined,
      el('pre', { tabIndex: 0, ariaLabel: title ?? (syntax ? `${syntax} code` : 'Code') }, el('code', { className: lang ? ['hljs', `language-${lang}`] : ['hljs'] }, rendered)),
    );
  }

  private images(block: DocumentBlock): Element {
    const data = block.data ?? {};
    const align = data.align === 'left' || data.align === 'right' ? data.align : 'center';
    const classes = ['images', `align-${align}`, data.fullWidth ? 'full-width' : undefined, data.withFrame ? 'frame' : undefined];
    const images = (block.nodes ?? []).filter((n): n is DocumentBlock => n.object === 'block');
    return el(
      'div',
      { className: classes.filter(Boolean) as string[] },
      images.map((img) => (img.type === 'image' ? el('figure', {}, this.image(img)) : this.block(img))),
    );
  }

  /** An image with its caption; a dark variant shown only in the dark theme. */
  private image(block: DocumentBlock): Child[] {
    const data = block.data ?? {};
    const src = imageSrc(data.ref as never, this.ctx);
    const dark = data.refDark ? imageSrc(data.refDark as never, this.ctx) : undefined;
    const caption = this.fragment(block, 'caption');
    const captionContent = caption ? caption.nodes.flatMap((p) => renderInlines(p.nodes, this.ctx)) : [];
    const alt = typeof data.alt === 'string' ? data.alt : textOf(captionContent);
    if (!src) return [this.placeholder(block, 'An image whose file is missing')];
    const size = (v: unknown, intrinsic?: number) =>
      typeof v === 'number' ? v : v && typeof v === 'object' && (v as { unit?: string }).unit === 'px' ? (v as { value: number }).value : intrinsic;
    const img = (s: { url: string; width?: number; height?: number }, theme?: string) => {
      // A set width keeps the image's proportions: the height is scaled with it when both are known.
      const width = size(data.width, s.width);
      const height = typeof width === 'number' && s.width && s.height && width !== s.width ? Math.round((s.height * width) / s.width) : size(data.height, s.height);
      return el('img', { src: s.url, alt, width, height, className: theme ? [theme] : undefined, loading: 'lazy', decoding: 'async' });
    };
    return [dark ? img(src, 'only-light') : img(src), dark ? img(dark, 'only-dark') : undefined, captionContent.length ? el('figcaption', {}, captionContent) : undefined].filter(
      (c): c is Element => !!c,
    );
  }

  private drawing(block: DocumentBlock): Element {
    const ref = block.data?.ref as { kind?: string; file?: string } | undefined;
    const src = imageSrc(ref, this.ctx);
    if (!src) return this.placeholder(block, 'A drawing whose file is missing');
    return el(
      'figure',
      { className: ['images', 'drawing'] },
      el('img', { src: src.url, alt: 'Drawing', width: src.width, height: src.height, loading: 'lazy', decoding: 'async' }),
    );
  }

  private file(block: DocumentBlock): Element {
    const ref = block.data?.ref as { file?: string } | undefined;
    const file = ref?.file ? this.ctx.file(ref.file) : undefined;
    if (!file) return this.placeholder(block, 'A file that is missing');
    const caption = this.fragment(block, 'caption');
    return el(
      'div',
      { className: ['file-block'] },
      el('span', { className: ['file-icon'], ariaHidden: 'true' }, '📄'),
      el(
        'div',
        { className: ['file-info'] },
        el('a', { href: file.url, download: file.name }, caption ? caption.nodes.flatMap((p) => renderInlines(p.nodes, this.ctx)) : file.name),
        el('span', { className: ['file-meta'] }, `${file.contentType} · ${formatSize(file.size)}`),
      ),
    );
  }

  private embed(block: DocumentBlock): Element {
    const url = String(block.data?.url ?? '');
    if (!/^https?:\/\//i.test(url)) return this.placeholder(block, 'An embed without a web address');
    let host = url;
    try {
      host = new URL(url).hostname;
    } catch {
      /* shown as written */
    }
    return el(
      'div',
      { className: ['embed', block.data?.fullWidth ? 'full-width' : undefined].filter(Boolean) as string[] },
      el('span', { className: ['embed-host'] }, host),
      el('a', { href: url, rel: ['noopener', 'nofollow'] }, url),
    );
  }

  private contentRef(block: DocumentBlock): Element {
    const target = block.data?.ref ? this.ctx.link(block.data.ref as never) : undefined;
    if (!target) return el('div', { className: ['content-ref', 'broken-link'], role: 'note' }, 'A link to content that is not available.');
    return el(
      'a',
      { className: ['content-ref'], href: target.href },
      el('span', { className: ['content-ref-icon'], ariaHidden: 'true' }, target.emoji ?? '📄'),
      el('span', { className: ['content-ref-title'] }, target.title ?? target.href),
    );
  }

  private reusableContent(block: DocumentBlock): Element {
    const ref = block.data?.ref as { kind?: string } | undefined;
    const doc = ref && this.reuseDepth < MAX_REUSE_DEPTH ? this.ctx.reusableContent?.(ref as never) : undefined;
    if (!doc) return this.placeholder(block, 'Reusable content');
    this.reuseDepth += 1;
    try {
      return el('div', { className: ['reusable-content'] }, this.blocks(doc.nodes));
    } finally {
      this.reuseDepth -= 1;
    }
  }

  private expandable(block: DocumentBlock): Element {
    const title = this.fragment(block, 'expandable-title');
    const body = this.fragment(block, 'expandable-body');
    return el(
      'details',
      { className: ['expandable'], open: block.data?.defaultExpanded === true },
      el('summary', {}, title ? title.nodes.flatMap((p) => renderInlines(p.nodes, this.ctx)) : 'Details'),
      el('div', { className: ['expandable-body'] }, body ? this.blocks(body.nodes) : []),
    );
  }

  /**
   * Tabs as the WAI-ARIA tabs pattern: the first panel shown, the others hidden until chosen (the
   * page's script switches them; without it, every panel is shown under its title).
   */
  private tabs(block: DocumentBlock): Element {
    const items = (block.nodes ?? []).filter((n): n is DocumentBlock => n.object === 'block' && n.type === 'tabs-item');
    const base = this.nextId('tabs');
    const tabs = items.map((item, i) =>
      el(
        'button',
        { type: 'button', role: 'tab', id: `${base}-tab-${i}`, ariaControls: [`${base}-panel-${i}`], ariaSelected: i === 0 ? 'true' : 'false', tabIndex: i === 0 ? 0 : -1 },
        String(item.data?.title ?? `Tab ${i + 1}`),
      ),
    );
    const panels = items.map((item, i) =>
      el(
        'div',
        { role: 'tabpanel', id: `${base}-panel-${i}`, ariaLabelledBy: [`${base}-tab-${i}`], hidden: i !== 0, tabIndex: 0, dataTitle: String(item.data?.title ?? `Tab ${i + 1}`) },
        this.blocks(item.nodes),
      ),
    );
    return el('div', { className: ['tabs', block.data?.fullWidth ? 'full-width' : undefined].filter(Boolean) as string[] }, el('div', { role: 'tablist' }, tabs), panels);
  }

  private column(block: DocumentBlock): Element {
    const width = block.data?.width as number | { value?: number; unit?: string } | undefined;
    const pct = typeof width === 'number' ? width : width && typeof width.value === 'number' && width.unit === '%' ? width.value : undefined;
    // The width is the column's share of the row (gaps taken out first, so widths adding up to 100% fit).
    const basis = typeof pct === 'number' && pct > 0 && pct <= 100 ? `flex:${pct} 1 0` : undefined;
    const valign = block.data?.verticalAlignment;
    return el('div', { className: ['column', typeof valign === 'string' ? `valign-${valign}` : undefined].filter(Boolean) as string[], style: basis }, this.blocks(block.nodes));
  }

  private update(block: DocumentBlock): Element {
    const date = typeof block.data?.date === 'string' ? block.data.date : '';
    const tags = ((block.data?.tags ?? []) as Array<{ tag?: string }>).map((t) => el('span', { className: ['tag'] }, String(t.tag ?? '')));
    return el(
      'article',
      { className: ['update'] },
      el('header', { className: ['update-meta'] }, date ? el('time', { dateTime: date }, date.slice(0, 10)) : undefined, tags),
      this.blocks(block.nodes),
    );
  }

  private openapi(block: DocumentBlock): Child {
    const reference = this.ctx.apiReference?.(block);
    if (reference) return reference;
    const data = block.data ?? {};
    const ref = data.ref as { spec?: string } | undefined;
    const what =
      block.type === 'openapi-operation' || block.type === 'swagger'
        ? `${String(data.method ?? '').toUpperCase()} ${String(data.path ?? '')}`.trim()
        : block.type === 'openapi-webhook'
          ? `Webhook ${String(data.name ?? '')}`.trim()
          : `Schemas ${((data.schemas ?? []) as string[]).join(', ')}`.trim();
    return el(
      'div',
      { className: ['openapi', 'unsupported-block'], role: 'note', dataBlock: block.type },
      el('code', {}, what || 'OpenAPI'),
      ref?.spec ? ` (OpenAPI specification “${ref.spec}”)` : undefined,
      ' — the API reference is not shown here yet.',
    );
  }
}

export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let v = bytes / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[u]}`;
}

export { unsupportedInline };

/** The spec's text alignment (`start`, `center`, `end`) as a class; `start` is the default. */
function alignClass(align: unknown): string | undefined {
  return align === 'center' ? 'align-center' : align === 'end' || align === 'right' ? 'align-right' : undefined;
}
