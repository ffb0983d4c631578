import { attributes, escapeAttribute, openTag } from './html';
import { block, text } from './nodes';
import type { DocumentBlock } from './types';

/**
 * A code block with highlighted lines, as Git Sync writes it (Markdown fences cannot mark lines):
 * `<pre class="language-js" data-title="app.js" data-line-numbers><code class="lang-js">a\n<strong>b\n</strong>c</code></pre>`.
 * `<strong>` wraps each highlighted line with its newline; the text is HTML-escaped.
 */
export function isHtmlCode(html: string): boolean {
  return /^<pre[\s>]/i.test(html) && /<\/pre>\s*$/i.test(html);
}

export function readHtmlCode(html: string): DocumentBlock | null {
  const pre = /^<pre([^>]*)>\s*(?:<code([^>]*)>)?([\s\S]*?)(?:<\/code>)?\s*<\/pre>\s*$/i.exec(html.trim());
  if (!pre) return null;
  const preAttrs = attributes(pre[1]);
  const codeAttrs = attributes(pre[2] ?? '');
  const data: Record<string, unknown> = {};
  const syntax = /(?:^|\s)language-(\S+)/.exec(preAttrs.class ?? '')?.[1] ?? /(?:^|\s)lang(?:uage)?-(\S+)/.exec(codeAttrs.class ?? '')?.[1];
  if (syntax) data.syntax = syntax;
  if (preAttrs['data-title']) data.title = preAttrs['data-title'];
  if (preAttrs['data-overflow'] === 'wrap' || preAttrs['data-overflow'] === 'scroll') data.overflow = preAttrs['data-overflow'];
  if ('data-line-numbers' in preAttrs) data.lineNumbers = preAttrs['data-line-numbers'] !== 'false';
  if ('data-full-width' in preAttrs) data.fullWidth = preAttrs['data-full-width'] !== 'false';

  const lines: Array<{ text: string; highlighted: boolean }> = [{ text: '', highlighted: false }];
  let strong = false;
  for (const part of pre[3].split(/(<\/?[a-zA-Z][^>]*>)/)) {
    const tag = /^<(\/?)([a-zA-Z]+)/.exec(part);
    if (tag) {
      if (tag[2].toLowerCase() === 'strong') strong = !tag[1];
      continue;
    }
    decodeAll(part)
      .split('\n')
      .forEach((piece, i) => {
        if (i) lines.push({ text: '', highlighted: false });
        const line = lines[lines.length - 1];
        line.text += piece;
        if (strong && piece) line.highlighted = true;
      });
  }
  // a highlighted last line is written `<strong>x\n</strong>`: no line after it
  if (lines.length > 1 && lines[lines.length - 1].text === '' && /\n<\/strong>\s*$/.test(pre[3])) lines.pop();
  return block(
    'code',
    data,
    lines.map((l) => block('code-line', l.highlighted ? { highlighted: true } : {}, [text(l.text)])),
  );
}

export function writeHtmlCode(data: Record<string, unknown>, lines: Array<{ text: string; highlighted: boolean }>): string {
  const syntax = typeof data.syntax === 'string' && data.syntax ? data.syntax : undefined;
  const open = openTag('pre', [
    ['class', syntax ? `language-${syntax}` : undefined],
    ['data-title', data.title as string | undefined],
    ['data-overflow', data.overflow as string | undefined],
    ['data-line-numbers', data.lineNumbers === true ? true : data.lineNumbers === false ? 'false' : undefined],
    ['data-full-width', typeof data.fullWidth === 'boolean' ? String(data.fullWidth) : undefined],
  ]);
  const body = lines
    .map((l, i) => {
      const value = escapeText(l.text) + (i < lines.length - 1 ? '\n' : '');
      return l.highlighted ? `<strong>${value}</strong>` : value;
    })
    .join('');
  return `${open}<code${syntax ? ` class="lang-${escapeAttribute(syntax)}"` : ''}>${body}</code></pre>`;
}

function escapeText(value: string): string {
  return value.replace(/&/g, '&#x26;').replace(/</g, '&#x3C;').replace(/>/g, '&#x3E;');
}

function decodeAll(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|quot|amp|lt|gt|apos|nbsp);/gi, (whole, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isInteger(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ({ quot: '"', amp: '&', lt: '<', gt: '>', apos: "'", nbsp: '\u00a0' } as Record<string, string>)[e.toLowerCase()] ?? whole;
  });
}
