import type { Urls } from '@bindery/gateway/identity-routes';

type SectionJson = { id: string; title: string; path: string; body: string; anchor: string };
export type PageResultJson = { id: string; title: string; path: string; spaceId: string; sections: SectionJson[] };
export type SpaceResultJson = { id: string; title: string; pages: PageResultJson[] };

const pageUrl = (urls: Urls, spaceId: string, path: string) => `${urls.appUrl}/s/${encodeURIComponent(spaceId)}/${path.split('/').map(encodeURIComponent).join('/')}`;

/** The official SearchPageResult: the page and its matching sections (`body` an excerpt with <mark> around the matches), with app URLs. */
export function pageResultJson(p: PageResultJson, urls: Urls) {
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
export function spaceResultJson(s: SpaceResultJson, urls: Urls) {
  return { id: s.id, title: s.title, pages: s.pages.map((p) => pageResultJson(p, urls)) };
}
