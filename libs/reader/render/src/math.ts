import katex from 'katex';
import { Child, el, raw } from './hast';

/**
 * TeX through KaTeX, on the server: HTML for the eye and MathML for screen readers. A formula KaTeX
 * cannot parse is shown as its source in the error colour (never an exception, never nothing).
 * KaTeX escapes what it outputs, so its HTML is passed through as is.
 */
function tex(formula: string, displayMode: boolean): string {
  return katex.renderToString(formula, { displayMode, throwOnError: false, output: 'htmlAndMathml', strict: 'ignore', trust: false, maxExpand: 1000, maxSize: 50 });
}

export function inlineMath(formula: string): Child {
  return el('span', { className: ['math', 'math-inline'] }, raw(tex(formula, false)));
}

export function blockMath(formula: string): Child {
  return el('div', { className: ['math', 'math-block'] }, raw(tex(formula, true)));
}
