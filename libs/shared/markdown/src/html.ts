/**
 * The few HTML forms GitBook embeds in Markdown (`<figure>`, `<img>`, `<a class="button">`, `<mark style>`,
 * `<details>`) arrive from remark as raw `html` nodes; these helpers read their attributes. They are not a general
 * HTML parser: only single tags and the fixed figure layout Git Sync writes.
 */
const ATTRIBUTE = /([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
const TAG = /^<([a-zA-Z][a-zA-Z0-9-]*)((?:\s[^>]*)?)\/?>$/s;

export interface HtmlTag {
  name: string;
  attrs: Record<string, string>;
  closing: boolean;
}

/** A single opening or closing tag (`<kbd>`, `</kbd>`, `<img src="…">`), or null. */
export function htmlTag(value: string): HtmlTag | null {
  const trimmed = value.trim();
  const close = /^<\/([a-zA-Z][a-zA-Z0-9-]*)\s*>$/.exec(trimmed);
  if (close) return { name: close[1].toLowerCase(), attrs: {}, closing: true };
  const open = TAG.exec(trimmed);
  if (!open) return null;
  return { name: open[1].toLowerCase(), attrs: attributes(open[2] ?? ''), closing: false };
}

export function attributes(source: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const match of source.matchAll(ATTRIBUTE)) {
    out[match[1].toLowerCase()] = decodeEntities(match[2] ?? match[3] ?? match[4] ?? '');
  }
  return out;
}

/** Every `<tag …>` occurrence of one tag name in a snippet, with its attributes. */
export function tagsNamed(html: string, name: string): Record<string, string>[] {
  const pattern = new RegExp(`<${name}(\\s[^>]*)?/?>`, 'gi');
  return Array.from(html.matchAll(pattern), (m) => attributes(m[1] ?? ''));
}

/** Inner HTML of the first `<tag>…</tag>` in a snippet. */
export function innerOf(html: string, name: string): string | undefined {
  const match = new RegExp(`<${name}(?:\\s[^>]*)?>([\\s\\S]*?)</${name}>`, 'i').exec(html);
  return match?.[1];
}

export function decodeEntities(value: string): string {
  return value.replace(/&(quot|amp|lt|gt|#39|apos);/g, (_, e: string) => ({ quot: '"', amp: '&', lt: '<', gt: '>', '#39': "'", apos: "'" })[e] ?? _);
}

export function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** `<tag a="1" b>` from ordered attributes; `true` prints a bare attribute, undefined/false omit it. */
export function openTag(name: string, attrs: Array<[string, string | boolean | undefined]>): string {
  const parts = attrs.filter(([, v]) => v !== undefined && v !== false).map(([k, v]) => (v === true ? k : `${k}="${escapeAttribute(String(v))}"`));
  return `<${[name, ...parts].join(' ')}>`;
}

/** The first image of a `srcset` (`dark.png 2x, dark@3x.png 3x` → `dark.png`): the one a document's reference can name. */
export function firstOfSrcset(srcset: string | undefined): string | undefined {
  const first = srcset?.split(',')[0]?.trim().split(/\s+/)[0];
  return first || undefined;
}
