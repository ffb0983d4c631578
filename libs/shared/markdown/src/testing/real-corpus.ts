import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { documentToMarkdown, markdownToDocument } from '../index';
import type { ContentRef, ParsedMarkdown, ToDocumentOptions } from '../types';

/** Test-only: pages GitBook wrote in public repositories (`src/corpus-real/<project>/…`, see SOURCES.md there). */
export const REAL_CORPUS_DIR = join(__dirname, '..', 'corpus-real');

export function realCorpus(): Array<{ name: string; markdown: string }> {
  const walk = (dir: string): string[] =>
    readdirSync(dir)
      .sort()
      .flatMap((entry) => {
        const path = join(dir, entry);
        if (statSync(path).isDirectory()) return walk(path);
        return entry.endsWith('.md') && dir !== REAL_CORPUS_DIR ? [path] : [];
      });
  return walk(REAL_CORPUS_DIR).map((path) => ({ name: relative(REAL_CORPUS_DIR, path), markdown: readFileSync(path, 'utf8') }));
}

/**
 * Resolvers of a space that holds none of the pages and files these pages link to: every relative page link and
 * `.gitbook/assets/…` source answers null. Only the printer's own default hrefs (`/pages/<id>`, `/files/<id>`) resolve.
 */
export const emptySpace: Required<ToDocumentOptions> = {
  resolveLink(href: string): ContentRef | null {
    const m = /^\/pages\/([^#/]+)(?:#(.+))?$/.exec(href);
    if (!m) return null;
    return m[2] ? { kind: 'anchor', anchor: m[2], page: m[1] } : { kind: 'page', page: m[1] };
  },
  resolveFile(src: string) {
    return src.startsWith('/files/') ? { kind: 'file', file: src.slice('/files/'.length) } : null;
  },
  resolveReusableContent() {
    return null;
  },
};

export interface Trip {
  md1: string;
  md2: string;
  md3: string;
  doc1: ParsedMarkdown;
  doc2: ParsedMarkdown;
}

export function trip(md1: string, options: ToDocumentOptions = emptySpace): Trip {
  const doc1 = markdownToDocument(md1, options);
  const md2 = documentToMarkdown(doc1.document, { title: doc1.title, frontmatter: doc1.frontmatter });
  const doc2 = markdownToDocument(md2, options);
  const md3 = documentToMarkdown(doc2.document, { title: doc2.title, frontmatter: doc2.frontmatter });
  return { md1, md2, md3, doc1, doc2 };
}

/** Line-level patterns for GitBook's constructs, counted in the Markdown text (outside fenced code). */
export const CONSTRUCTS: Record<string, RegExp> = {
  hint: /\{% hint /g,
  tabs: /\{% tabs %\}/g,
  tab: /\{% tab /g,
  stepper: /\{% stepper %\}/g,
  step: /\{% step %\}/g,
  'content-ref': /\{% content-ref url="[^"]+" %\}/g,
  embed: /\{% embed url="[^"]+"/g,
  file: /\{% file src="[^"]+"/g,
  code: /\{% code /g,
  columns: /\{% columns %\}/g,
  figure: /(?<!\\)<figure>/g,
  'figure caption': /(?<!\\)<figcaption>(?!\s*<\/figcaption>)/g,
  img: /(?<!\\)<img\s[^>]*src="[^"]+"|!\[[^\]]*\]\([^)\s]+/g,
  'img src .gitbook/assets': /(?:src="|\]\()(?:\.\.\/)*\.gitbook\/assets\//g,
  'br in table cell': /(?<!\\)<br>(?=[^\n]*\|\s*$)/gm,
  $$: /\$\$/g,
  button: /(?<!\\)<a [^>]*class="button (?:primary|secondary)"/g,
  expandable: /(?<!\\)<details>/g,
  'p align': /(?<!\\)<p align="/g,
  'h align': /(?<!\\)<h[1-6] align="/g,
  picture: /(?<!\\)<picture>/g,
  icon: /(?<!\\)<i class="fa-/g,
  'cards table': /(?<!\\)<table[^>]* data-view="cards"/g,
  'html table': /(?<!\\)<table[\s>]/g,
  'hard break \\': /[^\\\s]\\\n/g,
  'highlighted code (<pre>)': /(?<!\\)<pre class="language-/g,
  'md link': /\]\([^)]+\)/g,
};

function withoutFences(markdown: string): string {
  return markdown.replace(/^(\s*)(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1\2[ \t]*$/gm, '');
}

export function countConstructs(markdown: string): Record<string, number> {
  const text = withoutFences(markdown);
  return Object.fromEntries(Object.entries(CONSTRUCTS).map(([name, pattern]) => [name, (text.match(pattern) ?? []).length]));
}

function words(markdown: string): Map<string, number> {
  const bag = new Map<string, number>();
  for (const w of markdown.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) bag.set(w, (bag.get(w) ?? 0) + 1);
  return bag;
}

/** Words of `before` (with multiplicity) that `after` still holds. */
export function wordsKept(before: string, after: string): { total: number; kept: number } {
  const a = words(before);
  const b = words(after);
  let total = 0;
  let kept = 0;
  for (const [w, n] of a) {
    total += n;
    kept += Math.min(n, b.get(w) ?? 0);
  }
  return { total, kept };
}

export interface CorpusFigures {
  pages: number;
  stable: number;
  unstable: string[];
  /** pages whose md2 is byte-identical to md1 */
  identical: number;
  /** HTML tags md2 holds escaped (`\<div`) that md1 did not */
  escapedTags: number;
  words: { total: number; kept: number };
  blocks: { total: number; kept: number };
  constructs: Record<string, { before: number; kept: number }>;
}

/** Blocks = the GitBook constructs above other than plain Markdown links (kept per page: min(md1, md2)). */
export function measure(pages: Array<{ name: string; markdown: string }>): CorpusFigures {
  const figures: CorpusFigures = {
    pages: pages.length,
    stable: 0,
    unstable: [],
    identical: 0,
    escapedTags: 0,
    words: { total: 0, kept: 0 },
    blocks: { total: 0, kept: 0 },
    constructs: {},
  };
  for (const { name, markdown } of pages) {
    const t = trip(markdown);
    if (t.md3 === t.md2) figures.stable++;
    else figures.unstable.push(name);
    if (t.md2 === t.md1) figures.identical++;
    const escaped = (md: string) => (withoutFences(md).match(/\\<[a-zA-Z/]/g) ?? []).length;
    figures.escapedTags += Math.max(0, escaped(t.md2) - escaped(t.md1));
    const w = wordsKept(t.md1, t.md2);
    figures.words.total += w.total;
    figures.words.kept += w.kept;
    const before = countConstructs(t.md1);
    const after = countConstructs(t.md2);
    for (const key of Object.keys(CONSTRUCTS)) {
      const c = (figures.constructs[key] ??= { before: 0, kept: 0 });
      const kept = Math.min(before[key], after[key]);
      c.before += before[key];
      c.kept += kept;
      if (key !== 'md link' && key !== 'img src .gitbook/assets') {
        figures.blocks.total += before[key];
        figures.blocks.kept += kept;
      }
    }
  }
  return figures;
}

export function report(f: CorpusFigures): string {
  const pct = (a: number, b: number) => (b ? ((100 * a) / b).toFixed(1) : '100.0');
  const lines = [
    `real corpus: ${f.pages} pages`,
    `stable on the second trip (md3 === md2): ${f.stable} of ${f.pages}${f.unstable.length ? ` (unstable: ${f.unstable.join(', ')})` : ''}`,
    `byte-identical after one trip (md2 === md1): ${f.identical} of ${f.pages}`,
    `HTML tags escaped by the trip: ${f.escapedTags}`,
    `words kept (md1 → md2): ${f.words.kept} of ${f.words.total} (${pct(f.words.kept, f.words.total)} %)`,
    `GitBook blocks kept: ${f.blocks.kept} of ${f.blocks.total} (${pct(f.blocks.kept, f.blocks.total)} %)`,
    '',
    '| construct | in md1 | kept in md2 |',
    '| --- | ---: | ---: |',
    ...Object.entries(f.constructs).map(([k, c]) => `| ${k} | ${c.before} | ${c.kept} |`),
  ];
  return lines.join('\n');
}
