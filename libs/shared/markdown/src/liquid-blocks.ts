import type { Nodes, RootContent } from 'mdast';
import { decodeEntities } from './html';
import { parseMarkdown } from './remark';

/**
 * GitBook's `{% tag %}…{% endtag %}` blocks and `<details>` expandables are not Markdown: CommonMark sees their
 * delimiter lines as paragraph text or raw HTML. They are handled in two steps around the remark parser:
 *  1. `isolateBlockTags` puts every delimiter line in a paragraph of its own (blank lines around it, keeping the
 *     `>`/indent prefix of its container), skipping lines inside fenced code and maths (found by a first remark parse);
 *  2. `groupBlocks` turns a container's children into a tree, each delimiter paragraph opening or closing a group.
 */

export interface BlockGroup {
  type: 'group';
  name: string;
  attrs: Record<string, string>;
  /** Text written after the opening tag on the same line (`{% file src="…" %}caption{% endfile %}`). */
  body?: string;
  /** `<summary>` inner HTML of a `<details>` group. */
  summary?: string;
  children: BlockItem[];
}

export type BlockItem = RootContent | BlockGroup;

/** Tags that enclose blocks until their `{% end… %}`. */
const CONTAINERS = new Set(['hint', 'tabs', 'tab', 'code', 'stepper', 'step', 'columns', 'column', 'content-ref', 'details']);
/** Tags GitBook writes both alone and with a caption closed by `{% end… %}`. */
const OPTIONAL_END = new Set(['embed', 'file']);

const LIQUID_LINE = /^\{%-?\s*(end)?([a-zA-Z][\w-]*)(.*?)-?%\}(.*)$/s;
const DETAILS_OPEN = /^<details(\s+open(?:="[^"]*")?)?\s*>$/i;
const DETAILS_CLOSE = /^<\/details\s*>$/i;
const SUMMARY = /^<summary>([\s\S]*)<\/summary>$/i;
const PREFIX = /^((?:[ \t]*>)*[ \t]*)/;
const TRAILING_CLOSE = /^(.*[^\s])[ \t]+((?:\{%-?\s*end[a-zA-Z][\w-]*\s*-?%\}[ \t]*)+)$/;

export function isolateBlockTags(markdown: string): string {
  const literal = literalLines(markdown);
  const lines = markdown.split('\n');
  const out: string[] = [];
  const open: Array<{ name: string; prefix: string }> = [];
  lines.forEach((line, index) => {
    let prefix = PREFIX.exec(line)![1];
    let content = line.slice(prefix.length).trimEnd();
    if (literal.has(index + 1)) return void out.push(line);
    // `Last sentence. {% endstep %}`: closing tags written at the end of a text line
    const trailing = content.startsWith('{%') ? null : TRAILING_CLOSE.exec(content);
    if (trailing) {
      out.push(prefix + trailing[1]);
      content = trailing[2].trim();
    } else if (!isDelimiter(content)) return void out.push(line);
    // `{% stepper %} {% step %}` (several tags on one line): one line each
    const tags = /^(?:\{%[^%]*%\}[ \t]*){2,}$/.test(content) ? content.match(/\{%[^%]*%\}/g)! : [content];
    for (const tag of tags) {
      const m = LIQUID_LINE.exec(tag);
      if (m && !m[1] && CONTAINERS.has(m[2]) && !new RegExp(`\\{%-?\\s*end${m[2]}\\s*-?%\\}`).test(m[4])) open.push({ name: m[2], prefix });
      if (m?.[1]) {
        // a closing tag indented into a list item (lazy continuation) closes the block opened outside it
        const at = open.map((o) => o.name).lastIndexOf(m[2]);
        if (at >= 0) {
          if (open[at].prefix.length < prefix.length) prefix = open[at].prefix;
          open.length = at;
        }
      }
      const blank = prefix.trimEnd();
      out.push(blank, prefix + tag, blank);
    }
  });
  return out.join('\n');
}

function isDelimiter(content: string): boolean {
  if (content.startsWith('{%')) return LIQUID_LINE.test(content);
  return DETAILS_OPEN.test(content) || DETAILS_CLOSE.test(content) || SUMMARY.test(content);
}

/** 1-based line numbers holding code or maths, where a `{% … %}` line is content, not a delimiter. */
function literalLines(markdown: string): Set<number> {
  const lines = new Set<number>();
  const visit = (node: Nodes) => {
    if ((node.type === 'code' || node.type === 'math' || node.type === 'yaml') && node.position) {
      for (let l = node.position.start.line; l <= node.position.end.line; l++) lines.add(l);
      return;
    }
    if ('children' in node) node.children.forEach(visit);
  };
  if (markdown.includes('{%') || /<\/?(details|summary)/i.test(markdown)) visit(parseMarkdown(markdown));
  return lines;
}

interface Marker {
  kind: 'open' | 'close' | 'summary';
  name: string;
  attrs: Record<string, string>;
  body?: string;
  closedInline?: boolean;
}

function markerOf(node: RootContent, source: string): Marker | null {
  if (node.type === 'html') {
    const value = node.value.trim();
    const open = DETAILS_OPEN.exec(value);
    if (open) return { kind: 'open', name: 'details', attrs: open[1] ? { open: 'true' } : {} };
    if (DETAILS_CLOSE.test(value)) return { kind: 'close', name: 'details', attrs: {} };
    const summary = SUMMARY.exec(value);
    if (summary) return { kind: 'summary', name: 'summary', attrs: {}, body: summary[1] };
    return null;
  }
  if (node.type !== 'paragraph' || !node.position) return null;
  const raw = source.slice(node.position.start.offset, node.position.end.offset).trim();
  if (raw.includes('\n')) return null;
  const match = LIQUID_LINE.exec(raw);
  if (!match) return null;
  const [, end, name, args, rest] = match;
  if (end) return { kind: 'close', name, attrs: {} };
  const marker: Marker = { kind: 'open', name, attrs: liquidAttributes(args) };
  const inlineEnd = new RegExp(`^([\\s\\S]*?)\\{%-?\\s*end${name}\\s*-?%\\}\\s*$`).exec(rest);
  if (inlineEnd) {
    marker.body = inlineEnd[1].trim();
    marker.closedInline = true;
  } else if (rest.trim()) marker.body = rest.trim();
  return marker;
}

/** `style="info" title='x'` → attributes; a lone quoted value (`{% include "x.md" %}`) is stored under `_`. */
export function liquidAttributes(source: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of source.matchAll(/([\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"']+))|"([^"]*)"|'([^']*)'/g)) {
    if (m[1]) attrs[m[1]] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
    else attrs._ = decodeEntities(m[5] ?? m[6] ?? '');
  }
  return attrs;
}

export function groupBlocks(children: RootContent[], source: string): BlockItem[] {
  const root: BlockItem[] = [];
  const stack: BlockGroup[] = [];
  const target = () => (stack.length ? stack[stack.length - 1].children : root);
  const markers = children.map((child) => markerOf(child, source));

  markers.forEach((marker, index) => {
    const child = children[index];
    if (!marker) return target().push(child);
    if (marker.kind === 'summary') {
      const top = stack[stack.length - 1];
      if (top?.name === 'details' && top.summary === undefined && top.children.length === 0) top.summary = marker.body;
      else target().push(child);
      return;
    }
    if (marker.kind === 'close') {
      const at = stack.map((g) => g.name).lastIndexOf(marker.name);
      if (at >= 0) stack.length = at;
      else if (!OPTIONAL_END.has(marker.name)) target().push(child);
      return;
    }
    const group: BlockGroup = { type: 'group', name: marker.name, attrs: marker.attrs, body: marker.body, children: [] };
    if (CONTAINERS.has(marker.name) && !marker.closedInline) {
      target().push(group);
      stack.push(group);
    } else if (OPTIONAL_END.has(marker.name)) {
      target().push(group);
      if (!marker.closedInline && closedLater(markers, index, marker.name)) stack.push(group);
    } else if (CONTAINERS.has(marker.name)) target().push(group);
    else target().push(child);
  });
  return root;
}

/** Whether an optional-end tag's `{% end… %}` comes before the next tag of the same name. */
function closedLater(markers: Array<Marker | null>, from: number, name: string): boolean {
  for (let i = from + 1; i < markers.length; i++) {
    const m = markers[i];
    if (m?.name !== name) continue;
    return m.kind === 'close';
  }
  return false;
}
