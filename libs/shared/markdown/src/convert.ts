import type { Root } from 'mdast';
import { readFrontmatter, writeFrontmatter } from './frontmatter';
import { assignKeys } from './keys';
import { isolateBlockTags } from './liquid-blocks';
import { inlineText } from './nodes';
import { convertBlocks } from './parse/blocks';
import { collectDefinitions, type ParseContext } from './parse/context';
import { convertInlines } from './parse/inlines';
import { printBlocks } from './print/blocks';
import { defaultHrefOf } from './refs';
import { parseMarkdown, printMarkdown } from './remark';
import type { ContentRef, Document, PageFrontmatter, Written, ParsedMarkdown, ToDocumentOptions, ToMarkdownOptions } from './types';

export function markdownToDocument(markdown: string, options: ToDocumentOptions = {}): ParsedMarkdown {
  const source = isolateBlockTags(markdown.replace(/\r\n?/g, '\n'));
  const root = parseMarkdown(source);
  const written: Written[] = [];
  const logged = <T extends ContentRef>(href: string, ref: T | null | undefined): T | null => (ref ? (written.push({ ref, href }), ref) : null);
  const resolving: ToDocumentOptions = {
    ...options,
    resolveLink: options.resolveLink && ((href) => logged(href, options.resolveLink!(href))),
    resolveFile: options.resolveFile && ((src) => logged(src, options.resolveFile!(src))),
  };
  const ctx: ParseContext = { source, options: resolving, definitions: collectDefinitions(root), dropped: { count: 0 }, written };
  let children = root.children;
  let frontmatter: PageFrontmatter = {};
  if (children[0]?.type === 'yaml') {
    frontmatter = readFrontmatter(children[0].value);
    children = children.slice(1);
  }
  let title: string | undefined;
  const first = children[0];
  if (first?.type === 'heading' && first.depth === 1) {
    title = inlineText(convertInlines(first.children, ctx)).trim();
    children = children.slice(1);
  }
  const document: Document = { object: 'document', data: {}, nodes: convertBlocks(children, ctx) };
  return title === undefined ? { document: assignKeys(document), frontmatter } : { document: assignKeys(document), frontmatter, title };
}

export function documentToMarkdown(document: Document, options: ToMarkdownOptions = {}): string {
  const hrefOf = options.hrefOf ?? defaultHrefOf;
  const root: Root = { type: 'root', children: [] };
  const yaml = writeFrontmatter(options.frontmatter);
  if (yaml) root.children.push({ type: 'yaml', value: yaml });
  if (options.title) root.children.push({ type: 'heading', depth: 1, children: [{ type: 'text', value: options.title }] });
  root.children.push(...printBlocks(document.nodes, hrefOf));
  return printMarkdown(root);
}
