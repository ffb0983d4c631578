// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- the types of node-diff3 (package.json "exports") are out of reach of node10 resolution; every project compiling this file needs them
/// <reference path="./node-diff3.d.ts" />
import { diff3Merge, diffComm } from 'node-diff3';
import { frontmatterLayoutOf, type LayoutOptions } from '@bindery/shared/markdown';
import { Document as YamlDocument, isMap, parseDocument, stringify as stringifyYaml } from 'yaml';

/** The fields of a page that its file's front matter carries, as content answers them (the official RevisionPage). */
export interface PageFileFields {
  title?: string;
  description?: string;
  icon?: string;
  emoji?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  /** the official RevisionPageLayoutOptions */
  layout?: Partial<LayoutOptions>;
  cover?: { ref?: { kind: string; url?: string; file?: string }; yPos?: number; height?: number };
  markdown?: string;
}

/**
 * The front matter of a page as a mapping, in GitBook's order; `coverPath` names a cover stored as a
 * file of the space (relative to the page's file).
 */
export function frontmatterOf(page: PageFileFields, coverPath?: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const put = (key: string, value: unknown) => {
    if (value !== undefined && value !== null && value !== '') out[key] = value;
  };
  put('description', page.description);
  put('icon', page.icon);
  put('emoji', page.emoji);
  const cover = page.cover?.ref?.kind === 'file' ? coverPath : page.cover?.ref?.url;
  if (cover) {
    out.cover = cover;
    out.coverY = page.cover?.yPos ?? 0;
    put('coverHeight', page.cover?.height);
  }
  put('layout', frontmatterLayoutOf(page.layout));
  if (page.hidden) out.hidden = true;
  if (page.noIndex) out.noIndex = true;
  if (page.noRobotsIndex) out.noRobotsIndex = true;
  return out;
}

/** A page's file as GitBook writes it: the front matter, the title as `# H1`, then the Markdown. */
export function pageFileText(page: PageFileFields, coverPath?: string): string {
  const fields = frontmatterOf(page, coverPath);
  const head = Object.keys(fields).length ? `---\n${stringifyYaml(fields, { lineWidth: 0 })}---\n\n` : '';
  const body = String(page.markdown ?? '').replace(/^\n+/, '');
  return `${head}# ${page.title ?? ''}\n\n${body}`.replace(/\n*$/, '\n');
}

const FRONTMATTER = /^---\r?\n([\s\S]*?\r?\n)?---[ \t]*(?:\r?\n|$)/;

/** A file's front matter (`head`, the YAML inside it), the blank lines after it (`gap`) and the rest. */
function splitFile(text: string): { yaml?: string; head: string; gap: string; body: string } {
  const m = FRONTMATTER.exec(text);
  const rest = m ? text.slice(m[0].length) : text;
  const gap = /^(?:[ \t]*\r?\n)*/.exec(rest)![0];
  return { ...(m ? { yaml: m[1] ?? '' } : {}), head: m ? m[0] : '', gap, body: rest.slice(gap.length) };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Applies to `doc` the differences from `before` to `after` at `path`, key by key (nested mappings deeply). */
function applyChanges(doc: YamlDocument, path: string[], before: Record<string, unknown>, after: Record<string, unknown>) {
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const [b, a] = [before[key], after[key]];
    if (same(b, a)) continue;
    const at = [...path, key];
    if (a === undefined) doc.deleteIn(at);
    else if (isObject(a) && isObject(b) && isMap(doc.getIn(at, true))) applyChanges(doc, at, b, a);
    else doc.setIn(at, a);
  }
}

/**
 * The front matter of `repository` with the changes from `base` to `next` applied key by key: keys
 * nobody changed (unknown ones included) keep their text, order and comments. Answers undefined when the
 * repository's front matter is not a YAML mapping.
 */
function mergeFrontmatter(repository: string | undefined, base: Record<string, unknown>, next: Record<string, unknown>): string | undefined {
  const doc = parseDocument(repository ?? '');
  if (doc.errors.length || (doc.contents !== null && !isMap(doc.contents))) return undefined;
  if (doc.contents === null) doc.contents = doc.createNode({}) as never;
  applyChanges(doc, [], base, next);
  const text = doc.toString({ lineWidth: 0 });
  return text.trim() === '{}' ? '' : text;
}

/** Lines with their ends, so a missing final newline is a difference of its own. */
const lines = (text: string) => text.match(/[^\n]*\n|[^\n]+$/g) ?? [];

/**
 * The body of `repository` with the changes from `base` to `next` (both as export prints them) applied
 * line by line, a three-way merge: lines the printer would write differently but nobody edited stay as
 * the repository has them; where an edit meets such a line, the edit wins.
 */
function mergeBody(repository: string, base: string, next: string): string {
  if (base === next) return repository;
  const regions = diff3Merge(lines(repository), lines(base), lines(next), { excludeFalseConflicts: true });
  const merged = regions.map((r) => (r.ok ? r.ok : resolve(r.conflict!)).join('')).join('');
  // a file without a final newline keeps having none
  return repository && !repository.endsWith('\n') && merged.endsWith('\n') ? merged.slice(0, -1) : merged;
}

/**
 * Where an edit meets lines the repository spells otherwise: when the repository's lines match the
 * printed ones one for one (the printer respelled them: `*` bullets, HTML headings), the lines the edit
 * left alone keep the repository's spelling and only the edited ones are the edit's; otherwise the
 * edit's lines.
 */
function resolve({ a, o, b }: { a: string[]; o: string[]; b: string[] }): string[] {
  if (a.length !== o.length) return b;
  const out: string[] = [];
  let at = 0;
  for (const chunk of diffComm(o, b)) {
    if (chunk.common) {
      out.push(...a.slice(at, at + chunk.common.length));
      at += chunk.common.length;
    } else {
      out.push(...chunk.buffer2);
      at += chunk.buffer1.length;
    }
  }
  return out;
}

/**
 * The file to write for a page the repository already holds (`repository`): the changes between what
 * export would print for the page as of the last sync (`base`) and now (`next`) applied to the
 * repository's text, so an edit changes exactly the lines it touched, front matter included.
 */
export function mergePageFile(repository: string, base: { text: string; fields: Record<string, unknown> }, next: { text: string; fields: Record<string, unknown> }): string {
  if (base.text === next.text) return repository;
  const [r, b, n] = [splitFile(repository), splitFile(base.text), splitFile(next.text)];
  const body = mergeBody(r.body, b.body, n.body);
  // the fields unchanged: the repository's front matter (or its lack of one) as it is
  if (same(base.fields, next.fields)) return r.head + r.gap + body;
  const yaml = mergeFrontmatter(r.yaml, base.fields, next.fields);
  if (yaml === undefined) return n.head + n.gap + body;
  if (yaml === r.yaml) return r.head + r.gap + body;
  return yaml.trim() ? `---\n${yaml.replace(/\n*$/, '\n')}---\n${r.head ? r.gap : n.gap}${body}` : body;
}

/** Any text file (SUMMARY.md): the changes from `base` to `next` applied to the repository's text line by line. */
export const mergeText = (repository: string, base: string, next: string) => mergeBody(repository, base, next);
