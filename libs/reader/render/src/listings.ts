import type { PageEntry } from './tree';
import { firstPage } from './tree';

/** One site space (a section's variant) as the site's listings show it. */
export interface ListedSpace {
  /** what the listing calls it: "Section" or "Section › Variant"; empty for a site with one space */
  title: string;
  /** the site space's URL, without a trailing slash */
  baseUrl: string;
  pages: PageEntry[];
}

/** A page's URL: its site space's URL for the first page, `<base>/<path>` for the others. */
export function pageUrl(space: Pick<ListedSpace, 'baseUrl' | 'pages'>, entry: PageEntry): string {
  const first = firstPage(space.pages);
  if (first && first.page.id === entry.page.id) return `${space.baseUrl}/`;
  return `${space.baseUrl}/${entry.page.path ?? ''}`;
}

/** A page's Markdown URL: `<base>/<path>.md` (the first page too: its path names it). */
export const markdownUrl = (space: Pick<ListedSpace, 'baseUrl'>, entry: PageEntry): string => `${space.baseUrl}/${entry.page.path ?? ''}.md`;

/** Pages a listing shows: documents that are neither hidden nor noIndex (themselves or by inheritance). */
export const listedPages = (space: ListedSpace): PageEntry[] => space.pages.filter((e) => e.page.type === 'document' && !e.hidden && !e.noIndex);

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
/** Text inside a Markdown link label: brackets escaped. */
const label = (s: string) => oneLine(s).replace(/([[\]\\])/g, '\\$1');

/**
 * `llms.txt` (the llmstxt.org format): the site's title, its description as a quote, then one
 * section per site space listing each page's Markdown URL with its description.
 */
export function llmsTxt(site: { title: string; description?: string }, spaces: ListedSpace[]): string {
  const lines = [`# ${oneLine(site.title)}`, ''];
  if (site.description) lines.push(`> ${oneLine(site.description)}`, '');
  for (const space of spaces) {
    const pages = listedPages(space);
    if (!pages.length) continue;
    if (space.title || spaces.length > 1) lines.push(`## ${oneLine(space.title || 'Pages')}`, '');
    for (const entry of pages) {
      const description = entry.page.description ? `: ${oneLine(entry.page.description)}` : '';
      lines.push(`- [${label(entry.page.title)}](${markdownUrl(space, entry)})${description}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

/** The URLs of a sitemap: every page robots may index, in every site space (section and variant). */
export function sitemapEntries(spaces: ListedSpace[]): Array<{ loc: string; lastmod?: string }> {
  const seen = new Set<string>();
  const out: Array<{ loc: string; lastmod?: string }> = [];
  for (const space of spaces) {
    for (const entry of space.pages) {
      if (entry.page.type !== 'document' || entry.hidden || entry.noRobotsIndex) continue;
      const loc = pageUrl(space, entry);
      if (seen.has(loc)) continue;
      seen.add(loc);
      out.push(entry.page.updatedAt ? { loc, lastmod: entry.page.updatedAt } : { loc });
    }
  }
  return out;
}

/** `sitemap.xml` (sitemaps.org 0.9). */
export function sitemapXml(entries: Array<{ loc: string; lastmod?: string }>): string {
  const urls = entries.map((e) => `  <url><loc>${xml(e.loc)}</loc>${e.lastmod ? `<lastmod>${xml(e.lastmod)}</lastmod>` : ''}</url>`);
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', ...urls, '</urlset>', ''].join('\n');
}

/**
 * `robots.txt` of a site: an indexable (public) site allows everything and names its sitemap; any
 * other (unlisted, share-link, visitor-auth) disallows everything.
 */
export function robotsTxt(options: { indexable: boolean; sitemapUrl?: string }): string {
  if (!options.indexable) return 'User-agent: *\nDisallow: /\n';
  return `User-agent: *\nAllow: /\n${options.sitemapUrl ? `\nSitemap: ${options.sitemapUrl}\n` : ''}`;
}
