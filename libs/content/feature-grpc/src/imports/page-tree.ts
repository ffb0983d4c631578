import type { CrawledPage } from './crawl-site';

export interface PlannedPage {
  page: CrawledPage;
  /** the batch-local reference of the page */
  ref: string;
  /** the planned page of the nearest ancestor path, or null at the top */
  parent: PlannedPage | null;
}

/** A page's place under the crawl's prefix: its path segments without `index.html` and `.html`. */
export function segmentsOf(url: string, prefix: string): string[] {
  const path = decodeURIComponent(new URL(url).pathname).slice(prefix.length);
  const segments = path.split('/').filter(Boolean);
  const last = segments[segments.length - 1];
  if (last && /^index\.html?$/i.test(last)) segments.pop();
  else if (last) segments[segments.length - 1] = last.replace(/\.html?$/i, '');
  return segments;
}

/**
 * The page tree from URL paths: /docs/a/b is page b under page a (the nearest crawled ancestor path;
 * the top when there is none). Parents come before their children, siblings in crawl order. Two URLs
 * naming the same place keep the first; `refOfUrl` gives the page reference of every crawled URL.
 */
export function planTree(pages: CrawledPage[], prefix: string): { planned: PlannedPage[]; duplicates: number; refOfUrl: Map<string, string> } {
  const byKey = new Map<string, PlannedPage>();
  const withSegments: Array<{ page: CrawledPage; segments: string[]; order: number }> = pages.map((page, order) => ({ page, segments: segmentsOf(page.url, prefix), order }));
  withSegments.sort((a, b) => a.segments.length - b.segments.length || a.order - b.order);
  const planned: PlannedPage[] = [];
  let duplicates = 0;
  const refOfUrl = new Map<string, string>();
  for (const { page, segments } of withSegments) {
    const key = segments.join('/');
    if (byKey.has(key)) {
      refOfUrl.set(page.url, byKey.get(key)!.ref);
      duplicates += 1;
      continue;
    }
    let parent: PlannedPage | null = null;
    for (let n = segments.length - 1; n >= 0 && !parent && segments.length > 0; n -= 1) {
      const candidate = byKey.get(segments.slice(0, n).join('/'));
      // the start page (no segments) is a sibling of the top-level pages, not their parent
      if (candidate && n > 0) parent = candidate;
    }
    const entry: PlannedPage = { page, ref: `page-${planned.length}`, parent };
    byKey.set(key, entry);
    refOfUrl.set(page.url, entry.ref);
    planned.push(entry);
  }
  return { planned, duplicates, refOfUrl };
}
