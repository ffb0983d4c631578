import type { PageNode } from './types';

/** A page in reading order with its ancestors and the flags it inherits from them. */
export interface PageEntry {
  page: PageNode;
  /** outermost first */
  ancestors: PageNode[];
  /** hidden itself or under a hidden page: out of navigation and listings, still served */
  hidden: boolean;
  /** noIndex itself or inherited: out of search, llms.txt and the sitemap */
  noIndex: boolean;
  /** noRobotsIndex (or noIndex) itself or inherited: `noindex` for robots, out of the sitemap */
  noRobotsIndex: boolean;
}

/** Every page of a tree, depth first (the reading order), with what it inherits. */
export function flattenTree(pages: PageNode[] | undefined): PageEntry[] {
  const out: PageEntry[] = [];
  const walk = (nodes: PageNode[] | undefined, ancestors: PageNode[], hidden: boolean, noIndex: boolean, noRobots: boolean) => {
    for (const page of nodes ?? []) {
      const entry: PageEntry = {
        page,
        ancestors,
        hidden: hidden || page.hidden === true,
        noIndex: noIndex || page.noIndex === true,
        noRobotsIndex: noRobots || noIndex || page.noIndex === true || page.noRobotsIndex === true,
      };
      out.push(entry);
      walk(page.pages, [...ancestors, page], entry.hidden, entry.noIndex, entry.noRobotsIndex);
    }
  };
  walk(pages, [], false, false, false);
  return out;
}

/** The pages a reader reads: document pages, in order. */
export const documentPages = (entries: PageEntry[]): PageEntry[] => entries.filter((e) => e.page.type === 'document');

/** The space's first page: the one its root URL shows (the first document page, hidden or not). */
export function firstPage(entries: PageEntry[]): PageEntry | undefined {
  return entries.find((e) => e.page.type === 'document' && !e.hidden) ?? entries.find((e) => e.page.type === 'document');
}

/** The page at `path` ('' for the first page); a path is matched with and without a trailing slash. */
export function pageAtPath(entries: PageEntry[], path: string): PageEntry | undefined {
  const wanted = path.replace(/^\/+|\/+$/g, '');
  if (!wanted) return firstPage(entries);
  return entries.find((e) => e.page.type === 'document' && (e.page.path ?? '') === wanted);
}

/** A group or link page at `path` (a group has no content of its own: the reader goes to its first page). */
export function nodeAtPath(entries: PageEntry[], path: string): PageEntry | undefined {
  const wanted = path.replace(/^\/+|\/+$/g, '');
  return entries.find((e) => (e.page.path ?? '') === wanted);
}

export function pageById(entries: PageEntry[], id: string): PageEntry | undefined {
  return entries.find((e) => e.page.id === id);
}

/** Previous and next pages among the pages navigation shows. */
export function neighbours(entries: PageEntry[], pageId: string): { previous?: PageEntry; next?: PageEntry } {
  const listed = documentPages(entries).filter((e) => !e.hidden);
  const i = listed.findIndex((e) => e.page.id === pageId);
  if (i < 0) return {};
  return { previous: listed[i - 1], next: listed[i + 1] };
}

/** The tree navigation shows: hidden pages (and what is under them) and computed pages left out. */
export function navigationTree(pages: PageNode[] | undefined): PageNode[] {
  return (pages ?? []).filter((p) => !p.hidden && (p.type === 'document' || p.type === 'group' || p.type === 'link')).map((p) => ({ ...p, pages: navigationTree(p.pages) }));
}

/** The title navigation shows for a page. */
export const navTitle = (page: PageNode): string => page.linkTitle ?? page.title;
