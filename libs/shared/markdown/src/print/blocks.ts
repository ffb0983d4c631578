import type { BlockContent, Heading, List, ListItem, RootContent } from 'mdast';
import { escapeAttribute, openTag } from '../html';
import { keptSource } from '../verbatim';
import { writeHtmlCode } from '../html-code';
import { childBlocks, inlineText } from '../nodes';
import { isAbsoluteUrl } from '../refs';
import { printMarkdown } from '../remark';
import type { ContentRef, DocumentBlock, DocumentFragment, DocumentNode } from '../types';
import { inlinesToHtml, pictureTag, printInlines, type HrefOf } from './inlines';
import { printTable } from './tables';

type Flow = RootContent;

export function printBlocks(blocks: DocumentNode[] | undefined, hrefOf: HrefOf): Flow[] {
  return (blocks ?? []).filter((b): b is DocumentBlock => b.object === 'block').flatMap((b) => printBlock(b, hrefOf));
}

function printBlock(b: DocumentBlock, hrefOf: HrefOf): Flow[] {
  const data = b.data ?? {};
  const html = (value: string): Flow => ({ type: 'html', value });
  const tag = (name: string, attrs: Array<[string, string | undefined]> = []) => html(liquidTag(name, attrs));
  const kept = keptSource(b, hrefOf);
  if (kept !== undefined) return [html(kept)];
  switch (b.type) {
    case 'paragraph': {
      const children = printInlines(b.nodes, hrefOf);
      // (inline maths alone in its paragraph is written `$$x$$` too, and reads back as a maths block: GitBook
      // has no other form for it, a single `$` being a dollar sign)
      const align = { start: 'left', center: 'center', end: 'right' }[String(data.align) as 'start' | 'center' | 'end'];
      // an aligned paragraph is written as Git Sync does: `<p align="center">…</p>`
      if (align) return [html(`<p align="${align}">${inlinesToHtml(b.nodes, hrefOf)}</p>`)];
      // a line break ending the text is written as a bare trailing `\` (Git Sync's form)
      if (children[children.length - 1]?.type === 'break') children[children.length - 1] = { type: 'html', value: '\\' };
      return children.length ? [{ type: 'paragraph', children }] : [];
    }
    case 'heading-1':
    case 'heading-2':
    case 'heading-3': {
      const depth = (Number(b.type.slice(-1)) + 1) as Heading['depth'];
      const align = { start: 'left', center: 'center', end: 'right' }[String(data.align) as 'start' | 'center' | 'end'];
      // an aligned heading is written as Git Sync does: `<h3 align="center">…</h3>`
      if (align) {
        const anchor = typeof data.id === 'string' ? ` <a href="#${data.id}" id="${data.id}"></a>` : '';
        return [html(`<h${depth} align="${align}">${inlinesToHtml(b.nodes, hrefOf)}${anchor}</h${depth}>`)];
      }
      const children = printInlines(b.nodes, hrefOf);
      if (typeof data.id === 'string')
        children.push({ type: 'text', value: ' ' }, { type: 'html', value: `<a href="#${data.id}" id="${data.id}">` }, { type: 'html', value: '</a>' });
      return [{ type: 'heading', depth, children }];
    }
    case 'list-ordered':
    case 'list-unordered':
    case 'list-tasks':
      return [list(b, hrefOf)];
    case 'blockquote':
      return [{ type: 'blockquote', children: printBlocks(b.nodes, hrefOf) as BlockContent[] }];
    case 'code':
      return code(b);
    case 'math':
      return [{ type: 'math', value: String(data.formula ?? '') }];
    case 'divider':
      return [{ type: 'thematicBreak' }];
    case 'hint':
      return [tag('hint', [['style', String(data.style ?? 'info')]]), ...printBlocks(b.nodes, hrefOf), tag('endhint')];
    case 'tabs':
      return [tag('tabs'), ...childBlocks(b).flatMap((t) => [tag('tab', [['title', String(t.data.title ?? '')]]), ...printBlocks(t.nodes, hrefOf), tag('endtab')]), tag('endtabs')];
    case 'stepper':
      return [tag('stepper'), ...childBlocks(b).flatMap((s) => [tag('step'), ...printBlocks(s.nodes, hrefOf), tag('endstep')]), tag('endstepper')];
    case 'columns':
      return [
        tag('columns'),
        ...childBlocks(b).flatMap((c) => [tag('column', [['width', lengthText(c.data.width)]]), ...printBlocks(c.nodes, hrefOf), tag('endcolumn')]),
        tag('endcolumns'),
      ];
    case 'images':
      return images(b, hrefOf);
    case 'file':
      return data.ref ? [html(`${liquidTag('file', [['src', hrefOf(data.ref as ContentRef)]])}\n${liquidTag('endfile')}`)] : [];
    case 'embed':
      return [tag('embed', [['url', String(data.url ?? '')]])];
    case 'content-ref': {
      if (!data.ref) return [];
      const href = hrefOf(data.ref as ContentRef);
      // like Git Sync: the link text is the target's last path segment (`[setup.md](../guides/setup.md)`)
      const label = isAbsoluteUrl(href) ? href : (href.split('#')[0].split('/').filter(Boolean).pop() ?? href);
      return [
        html(`${liquidTag('content-ref', [['url', href]])}\n[${label.replace(/[[\]]/g, '\\$&')}](${/[\s()<>]/.test(href) ? `<${href}>` : href})\n${liquidTag('endcontent-ref')}`),
      ];
    }
    case 'expandable':
      return expandable(b, hrefOf);
    case 'table':
      return printTable(b, hrefOf);
    case 'drawing':
      return data.ref ? [{ type: 'paragraph', children: [{ type: 'image', url: hrefOf(data.ref as ContentRef), alt: '' }] }] : [];
    case 'reusable-content':
      return data.ref ? [tag('include', [['_', hrefOf(data.ref as ContentRef)]])] : [];
    case 'integration':
      return typeof data.url === 'string' ? [tag('embed', [['url', data.url]])] : [];
    default:
      // `if`, `updates` and other containers: their content; OpenAPI blocks have no Markdown form yet
      return printBlocks(b.nodes, hrefOf);
  }
}

/** `{% name a="1" %}`; the `_` attribute is a lone quoted value (`{% include "x" %}`). */
export function liquidTag(name: string, attrs: Array<[string, string | undefined]> = []): string {
  const parts = attrs.filter(([, v]) => v !== undefined).map(([k, v]) => (k === '_' ? `"${escapeAttribute(v!)}"` : `${k}="${escapeAttribute(v!)}"`));
  return `{% ${[name, ...parts].join(' ')} %}`;
}

function list(b: DocumentBlock, hrefOf: HrefOf): List {
  const tasks = b.type === 'list-tasks';
  const ordered = b.type === 'list-ordered';
  const items: ListItem[] = childBlocks(b).map((item) => {
    const children = printBlocks(item.nodes, hrefOf) as BlockContent[];
    // Blank lines between an item's blocks unless it is the usual "text + nested list": raw HTML and tag lines need them.
    const spread = children.length > 1 && !(children.length === 2 && children[0].type === 'paragraph' && children[1].type === 'list');
    return { type: 'listItem', spread, checked: tasks ? item.data.checked === true : null, children };
  });
  const start = ordered && typeof b.data.start === 'number' ? b.data.start : ordered ? 1 : null;
  // Tight between items: every construct that needs a blank line gets it inside its item.
  return { type: 'list', ordered, start, spread: false, children: items };
}

function code(b: DocumentBlock): Flow[] {
  const data = b.data;
  const lines = childBlocks(b).map((line) => ({ text: inlineText(line.nodes), highlighted: line.data?.highlighted === true }));
  if (lines.some((l) => l.highlighted)) return [{ type: 'html', value: writeHtmlCode(data, lines) }];
  const value = childBlocks(b)
    .map((line) => inlineText(line.nodes))
    .join('\n');
  const node: Flow = { type: 'code', lang: typeof data.syntax === 'string' && data.syntax ? data.syntax : null, value };
  const attrs: Array<[string, string | undefined]> = [
    ['title', data.title as string | undefined],
    ['overflow', data.overflow as string | undefined],
    ['lineNumbers', typeof data.lineNumbers === 'boolean' ? String(data.lineNumbers) : undefined],
    ['fullWidth', typeof data.fullWidth === 'boolean' ? String(data.fullWidth) : undefined],
  ];
  if (attrs.every(([, v]) => v === undefined)) return [node];
  return [{ type: 'html', value: liquidTag('code', attrs) }, node, { type: 'html', value: liquidTag('endcode') }];
}

function images(b: DocumentBlock, hrefOf: HrefOf): Flow[] {
  const imgs = childBlocks(b);
  if (!imgs.length) return [];
  // GitBook writes every block image as a <figure>, with or without a caption
  const figures = imgs
    .map((img) => {
      const caption = captionOf(img)?.nodes[0];
      const attrs = pictureTag(img.data, hrefOf).replace(/>(<\/picture>)?$/, (end) => (img.data.width !== undefined ? ` width="${lengthText(img.data.width)}"${end}` : end));
      const figcaption = caption ? `<figcaption><p>${inlinesToHtml(caption.nodes, hrefOf)}</p></figcaption>` : '<figcaption></figcaption>';
      return `<figure>${attrs}${figcaption}</figure>`;
    })
    .join('');
  const div = openTag('div', [
    ['align', b.data.align as string | undefined],
    ['data-full-width', typeof b.data.fullWidth === 'boolean' ? String(b.data.fullWidth) : undefined],
    ['data-with-frame', typeof b.data.withFrame === 'boolean' ? String(b.data.withFrame) : undefined],
  ]);
  return [{ type: 'html', value: div === '<div>' ? figures : `${div}${figures}</div>` }];
}

function captionOf(img: DocumentBlock): DocumentFragment | undefined {
  return img.fragments?.find((f) => f.fragment === 'caption');
}

function expandable(b: DocumentBlock, hrefOf: HrefOf): Flow[] {
  const title = b.fragments?.find((f) => f.fragment === 'expandable-title')?.nodes[0];
  const body = b.fragments?.find((f) => f.fragment === 'expandable-body')?.nodes ?? [];
  return [
    { type: 'html', value: b.data.defaultExpanded ? '<details open>' : '<details>' },
    // GitBook writes the title's formatting as HTML (`<summary><strong>…</strong></summary>`)
    { type: 'html', value: `<summary>${inlinesToHtml(oneLine(title?.nodes), hrefOf)}</summary>` },
    ...printBlocks(body, hrefOf),
    { type: 'html', value: '</details>' },
  ];
}

/** Inline content printed as one line of Markdown, for HTML wrappers (summary, figcaption). */
export function inlineMarkdown(nodes: DocumentNode[] | undefined, hrefOf: HrefOf): string {
  const children = printInlines(oneLine(nodes), hrefOf);
  return children.length ? printMarkdown({ type: 'root', children: [{ type: 'paragraph', children }] }).trim() : '';
}

function oneLine(nodes: DocumentNode[] | undefined): DocumentNode[] {
  return (nodes ?? []).map((node): DocumentNode => {
    if (node.object === 'text') return { ...node, leaves: node.leaves.map((l) => ({ ...l, text: l.text.replace(/\n/g, ' ') })) };
    return node.nodes ? { ...node, nodes: oneLine(node.nodes) } : node;
  });
}

function lengthText(value: unknown): string | undefined {
  if (typeof value === 'number') return String(value);
  if (value && typeof value === 'object' && 'value' in value) return `${(value as { value: number }).value}${(value as { unit?: string }).unit ?? ''}`;
  return undefined;
}
