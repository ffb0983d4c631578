import type { Nodes, Root } from 'mdast';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import remarkParse from 'remark-parse';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';

/** One parser and one printer for the whole library: CommonMark + GFM + maths + YAML front matter. */
// GitBook writes inline maths as `$$x$$`; a single `$` is a dollar sign (prices, shell and PHP variables), never maths.
const parser = unified().use(remarkParse).use(remarkGfm).use(remarkMath, { singleDollarTextMath: false }).use(remarkFrontmatter, ['yaml']);

const printer = unified()
  .use(remarkStringify, {
    bullet: '-',
    emphasis: '*',
    strong: '*',
    fence: '`',
    fences: true,
    rule: '-',
    listItemIndent: 'one',
    incrementListMarker: true,
    resourceLink: true,
    // GitBook writes `{% tag %}` lines right against the content they wrap; the parser isolates them again.
    // Between a closing and the next opening tag (`{% endstep %}` … `{% step %}`) it leaves a blank line.
    join: [(left, right) => (opens(left) || closes(right) ? 0 : undefined)],
  })
  .use(remarkGfm)
  .use(remarkMath, { singleDollarTextMath: false })
  .use(remarkFrontmatter, ['yaml']);

function opens(node: Nodes): boolean {
  return node.type === 'html' && /^\{% (?!end)/.test(node.value) && !/\{% end\S+ %\}$/.test(node.value) && !/^\{% (embed|include) /.test(node.value);
}

function closes(node: Nodes): boolean {
  return node.type === 'html' && node.value.startsWith('{% end');
}

export function parseMarkdown(markdown: string): Root {
  return parser.parse(markdown) as Root;
}

export function printMarkdown(root: Root): string {
  return printer.stringify(root);
}
