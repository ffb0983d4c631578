import { prefersMarkdown } from './negotiation';

test.each([
  [undefined, false],
  ['', false],
  ['text/markdown', true],
  ['text/x-markdown', true],
  ['TEXT/Markdown', true],
  ['text/html', false],
  ['*/*', false],
  ['text/*', false],
  ['text/markdown, text/html', true],
  ['text/html, text/markdown', true],
  ['text/markdown;q=0.9, text/html', false],
  ['text/markdown;q=0.9, text/html;q=0.9', true],
  ['text/markdown, text/html;q=0.5', true],
  ['text/markdown;q=0', false],
  ['text/markdown;q=0.5, */*', false],
  ['text/markdown;q=0.5, */*;q=0.1', true],
  ['text/markdown;q=0.5, text/*;q=0.8', false],
  ['text/markdown, */*;q=0.8', true],
  ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', false],
  ['text/markdown; charset=utf-8; q=0.7, text/html; q=0.6', true],
  ['text/markdown;q=2', false],
  ['text/markdown;q=abc, text/html;q=0.1', false],
])('Accept %p → Markdown %p', (accept, markdown) => {
  expect(prefersMarkdown(accept)).toBe(markdown);
});
