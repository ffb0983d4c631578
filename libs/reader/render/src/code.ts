import type { Element, ElementContent, Root } from 'hast';
import { el, text } from './hast';

/**
 * lowlight's API, as used here. Its own typings reference highlight.js's, which pull the DOM library
 * into every program that includes this file (and break Node's fetch types there): it is required,
 * not imported, and typed here instead.
 */
interface Lowlight {
  highlight(language: string, value: string): Root;
  registered(aliasOrName: string): boolean;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { all, createLowlight } = require('lowlight') as { all: Record<string, unknown>; createLowlight(grammars: Record<string, unknown>): Lowlight };

/**
 * Syntax highlighting with highlight.js through lowlight, which answers hast (no HTML string to
 * parse back). highlight.js was chosen over shiki for speed: measured here on the same JavaScript
 * block, 0.7 ms against 11.6 ms for shiki with two themes, and a third of the HTML (docs/reader.md).
 * Its classes (`hljs-keyword`, …) take their colours from the page's CSS, so light and dark follow
 * the theme without a second rendering.
 */
let lowlight: Lowlight | undefined;

function highlighter(): Lowlight {
  // Every grammar (~190) is registered on first use: about 0.1 s once per process.
  lowlight ??= createLowlight(all);
  return lowlight;
}

/** GitBook's syntax names that highlight.js knows under another name. */
const ALIASES: Record<string, string> = {
  'c++': 'cpp',
  'c#': 'csharp',
  'f#': 'fsharp',
  sh: 'bash',
  shell: 'bash',
  zsh: 'bash',
  console: 'shell',
  jsx: 'javascript',
  tsx: 'typescript',
  vue: 'xml',
  svelte: 'xml',
  html: 'xml',
  svg: 'xml',
  text: 'plaintext',
  txt: 'plaintext',
  plain: 'plaintext',
  gql: 'graphql',
  hcl: 'ini',
  terraform: 'ini',
  proto: 'protobuf',
  dotenv: 'bash',
};

/** The highlight.js language for a code block's `syntax`, or undefined when none fits. */
export function languageOf(syntax: string | undefined): string | undefined {
  if (!syntax) return undefined;
  const name = syntax.trim().toLowerCase();
  const lang = ALIASES[name] ?? name;
  return highlighter().registered(lang) ? lang : undefined;
}

/** The lines of `code` as hast, highlighted in `syntax` when it is known; a token spanning lines is split per line. */
export function highlightLines(code: string, syntax: string | undefined): ElementContent[][] {
  const lang = languageOf(syntax);
  if (!lang || lang === 'plaintext') return code.split('\n').map((line) => (line ? [text(line)] : []));
  const tree: Root = highlighter().highlight(lang, code);
  return splitLines(tree.children as ElementContent[]);
}

/** Splits highlighted nodes at newlines, reopening the enclosing spans on each line. */
export function splitLines(nodes: ElementContent[]): ElementContent[][] {
  const lines: ElementContent[][] = [[]];
  const walk = (node: ElementContent, wrap: (c: ElementContent) => ElementContent) => {
    if (node.type === 'text') {
      const parts = node.value.split('\n');
      parts.forEach((part, i) => {
        if (i > 0) lines.push([]);
        if (part) lines[lines.length - 1].push(wrap(text(part)));
      });
    } else if (node.type === 'element') {
      const element = node as Element;
      const rewrap = (c: ElementContent) => wrap({ ...element, children: [c] });
      for (const child of element.children) walk(child, rewrap);
    }
  };
  for (const node of nodes) walk(node, (c) => c);
  return lines.map(merge);
}

/** Adjacent pieces of one span, split by the walk above, joined back into one element. */
function merge(line: ElementContent[]): ElementContent[] {
  const out: ElementContent[] = [];
  for (const node of line) {
    const last = out[out.length - 1];
    if (last && last.type === 'element' && node.type === 'element' && sameSpan(last, node)) {
      last.children = merge([...last.children, ...node.children]);
    } else if (last && last.type === 'text' && node.type === 'text') {
      out[out.length - 1] = text(last.value + node.value);
    } else out.push(node.type === 'element' ? { ...node, children: [...node.children] } : node);
  }
  return out;
}

function sameSpan(a: Element, b: Element): boolean {
  return a.tagName === b.tagName && JSON.stringify(a.properties) === JSON.stringify(b.properties);
}

/** A `<span class="line">` for one line of a code block. */
export function lineElement(children: ElementContent[], highlighted: boolean): Element {
  return el('span', { className: highlighted ? ['line', 'highlighted'] : ['line'] }, children);
}
