import { escapeHtml as e } from '@bindery/reader/render';
import type { PublishedContent, ReaderSource, SiteView, Visitor } from './source';
import { messagePage } from './page-view';

/** The search page (HTML) or its JSON twin: hits of the site's search as this visitor may see them. */
export async function searchPage(input: {
  source: ReaderSource;
  content: PublishedContent;
  site: SiteView;
  visitor: Visitor;
  origin: string;
  query: string;
  json: boolean;
}): Promise<{ body: string; contentType: string }> {
  const query = input.query.trim().slice(0, 200);
  const hits = query ? await input.source.search(input.content, query, input.visitor) : [];
  if (input.json) {
    const results = hits.map((h) => ({ title: h.title, url: `${input.origin}${h.path}`, ...(h.snippet ? { snippet: h.snippet } : {}), ...(h.where ? { where: h.where } : {}) }));
    return { body: JSON.stringify({ query, results }), contentType: 'application/json; charset=utf-8' };
  }
  const list = hits.length
    ? `<ol class="search-results">${hits
        .map((h) => `<li><a href="${e(h.path)}">${e(h.title)}</a>${h.where ? ` <span class="where">${e(h.where)}</span>` : ''}${h.snippet ? `<p>${e(h.snippet)}</p>` : ''}</li>`)
        .join('')}</ol>`
    : query
      ? '<p>No page matches.</p>'
      : '<p>Type words to search for.</p>';
  const title = query ? `Search: ${query}` : 'Search';
  const main = `<h1>${e(title)}</h1><form class="search-form" role="search" method="get"><label for="search-page-q">Search this site</label> <input id="search-page-q" type="search" name="q" value="${e(query)}"><button type="submit">Search</button></form><p role="status">${hits.length} result${hits.length === 1 ? '' : 's'}</p>${list}`;
  return { body: messagePage({ site: input.site, content: input.content, title, main }), contentType: 'text/html; charset=utf-8' };
}
