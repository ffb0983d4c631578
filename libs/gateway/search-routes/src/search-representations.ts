import type { Urls } from '@bindery/gateway/identity-routes';
import type { searchV1 } from '@bindery/shared/contracts';

const pageUrl = (urls: Urls, spaceId: string, path: string) => `${urls.appUrl}/s/${encodeURIComponent(spaceId)}/${path.split('/').map(encodeURIComponent).join('/')}`;

/** The official SearchPageResult: the page and its matching sections (`body` an excerpt with <mark> around the matches), with app URLs. */
export function pageResultJson(p: searchV1.SearchPageResult, urls: Urls) {
  const app = pageUrl(urls, p.spaceId, p.path);
  return {
    id: p.id,
    title: p.title,
    path: p.path,
    sections: p.sections.map((s) => ({ id: s.id, title: s.title, path: s.path, body: s.body, urls: { app: s.anchor ? `${app}#${encodeURIComponent(s.anchor)}` : app } })),
    urls: { app },
  };
}

/** The official SearchSpaceResult. */
export function spaceResultJson(s: searchV1.SearchSpaceResult, urls: Urls) {
  return { id: s.id, title: s.title, pages: s.pages.map((p) => pageResultJson(p, urls)) };
}
