import type { Element } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { select, selectAll } from 'hast-util-select';

/** What an HTML page says about itself for a preview: OpenGraph (and Twitter) tags, <title>, icons, oEmbed discovery. */
export interface PageSummary {
  title?: string;
  siteName?: string;
  /** absolute http(s) URL */
  icon?: string;
  /** absolute http(s) URL of the page's JSON oEmbed endpoint */
  oembed?: string;
}

/** The most code points of a title or site name kept (a page may put anything in its tags). */
const TEXT_MAX = 300;

export function clean(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  const t = [...text.replace(/\s+/g, ' ').trim()].slice(0, TEXT_MAX).join('');
  return t || undefined;
}

export function absoluteHttp(href: unknown, base: string): string | undefined {
  if (typeof href !== 'string' || !href.trim()) return undefined;
  try {
    const url = new URL(href.trim(), base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    url.username = '';
    url.password = '';
    return url.href;
  } catch {
    return undefined;
  }
}

const tokens = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : typeof value === 'string' ? value.split(/\s+/) : []).map((t) => t.toLowerCase());

/** Icons by preference: a declared icon, then Apple's touch icon. */
const ICON_RELS = ['icon', 'shortcut', 'apple-touch-icon'];

/**
 * Reads a page (or its first bytes: the parser closes what is left open) for a preview. Property
 * values are taken as text; nothing of the page is executed or kept but these few fields.
 */
export function summarizePage(html: string, pageUrl: string): PageSummary {
  const tree = fromHtml(html);
  const meta = new Map<string, string>();
  for (const node of selectAll('meta', tree)) {
    const key = String(node.properties.property ?? node.properties.name ?? '').toLowerCase();
    const content = node.properties.content;
    if (key && typeof content === 'string' && !meta.has(key)) meta.set(key, content);
  }
  const links = selectAll('link[href]', tree);
  const icon = ICON_RELS.map((rel) => links.find((l: Element) => tokens(l.properties.rel).includes(rel))).find(Boolean);
  const oembed = links.find((l) => tokens(l.properties.rel).includes('alternate') && String(l.properties.type ?? '').toLowerCase() === 'application/json+oembed');
  const titleElement = select('title', tree);
  return {
    title: clean(meta.get('og:title')) ?? clean(meta.get('twitter:title')) ?? clean(titleElement?.children.map((c) => (c.type === 'text' ? c.value : '')).join('')),
    siteName: clean(meta.get('og:site_name')) ?? clean(meta.get('application-name')),
    icon: icon ? absoluteHttp(icon.properties.href, pageUrl) : undefined,
    oembed: oembed ? absoluteHttp(oembed.properties.href, pageUrl) : undefined,
  };
}
