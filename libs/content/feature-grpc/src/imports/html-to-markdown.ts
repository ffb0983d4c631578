import type { Element, Root } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { select, selectAll } from 'hast-util-select';
import { toMdast } from 'hast-util-to-mdast';
import { gfmToMarkdown } from 'mdast-util-gfm';
import { toMarkdown } from 'mdast-util-to-markdown';
import { visit } from 'unist-util-visit';

/** What a page's content links to, as absolute URLs, and how those are rewritten in its Markdown. */
export interface PageRewrites {
  /** an absolute link target (no fragment) → the Markdown href to write, or undefined to keep the URL */
  link(url: string): string | undefined;
  /** an absolute image URL → the Markdown source to write, or undefined to keep the URL */
  image(url: string): string | undefined;
}

export interface ParsedPage {
  title?: string;
  /** absolute http(s) URLs of every link of the page (navigation included), fragments removed */
  links: string[];
  /** absolute http(s) URLs of the page's images */
  images: string[];
  /** the main content as hast, ready for toMarkdownOf */
  main: Root;
}

const NOT_CONTENT = 'nav, header, footer, script, style, noscript, template, iframe, form, aside, [hidden], [aria-hidden="true"]';

function absolute(href: string | undefined, base: string): URL | undefined {
  if (!href) return undefined;
  try {
    const url = new URL(href, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads an HTML page: the links to crawl (all of them), its title (the first h1, else <title>) and main content (`main`, else `article`,
 * else `body`, without navigation, headers, footers, scripts and styles), with every link and image
 * made absolute against the page's URL.
 */
export function parsePage(html: string, pageUrl: string): ParsedPage {
  const tree = fromHtml(html);
  const links = new Set<string>();
  visit(tree, 'element', (node: Element) => {
    const url = node.tagName === 'a' ? absolute(node.properties.href as string | undefined, pageUrl) : undefined;
    if (url) {
      url.hash = '';
      links.add(url.href);
    }
  });
  const container = select('main', tree) ?? select('article', tree) ?? select('body', tree) ?? tree;
  for (const node of selectAll(NOT_CONTENT, container)) {
    node.tagName = 'template';
    node.children = [];
  }
  const main: Root = { type: 'root', children: container.type === 'root' ? container.children : [container] };
  const images = new Set<string>();
  visit(main, 'element', (node: Element) => {
    if (node.tagName === 'a') {
      const url = absolute(node.properties.href as string | undefined, pageUrl);
      if (url) node.properties.href = url.href;
    } else if (node.tagName === 'img') {
      const url = absolute(node.properties.src as string | undefined, pageUrl);
      if (url) {
        node.properties.src = url.href;
        images.add(url.href);
      }
    }
  });
  const h1 = select('h1', main);
  const titleNode = select('title', tree);
  const text = (el: Element | undefined) => (el ? textOf(el).trim().replace(/\s+/g, ' ') : '');
  const title = text(h1) || text(titleNode) || undefined;
  return { title, links: [...links], images: [...images], main };
}

function textOf(node: Element | Root): string {
  return node.children.map((c) => (c.type === 'text' ? c.value : c.type === 'element' ? textOf(c) : '')).join('');
}

/**
 * The main content as GitHub-flavoured Markdown (hast → mdast → Markdown), links and images rewritten:
 * a link to an imported page becomes its batch reference, an image a stored file's.
 */
export function markdownOf(page: ParsedPage, rewrites: PageRewrites): string {
  const mdast = toMdast(page.main);
  visit(mdast, (node) => {
    if (node.type === 'link') {
      const [target, fragment] = node.url.split('#', 2);
      const local = rewrites.link(target);
      if (local) node.url = fragment ? `${local}#${fragment}` : local;
    } else if (node.type === 'image') {
      const local = rewrites.image(node.url);
      if (local) node.url = local;
    }
  });
  return toMarkdown(mdast, { extensions: [gfmToMarkdown()], bullet: '-', fences: true });
}
