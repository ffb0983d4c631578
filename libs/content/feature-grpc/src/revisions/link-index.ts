import type { ContentRef } from '@bindery/shared/markdown';
import { PageNode } from '@bindery/content/domain';
import { Cursor, decodeCursor, encodeCursor, resolveLimit } from '@bindery/shared/pagination';

export type LinkStatus = 'ok' | 'broken' | 'in-app';

/** One target of a revision's links and the pages linking to it (the official ContentReferenceUsage, by id). */
export interface LinkUsage {
  key: string;
  status: LinkStatus;
  target: { kind: 'page'; page: string; anchor?: string } | { kind: 'file'; file: string } | { kind: 'url'; url: string };
  from: string[];
}

/** The target a reference names, or undefined for references that are not links (users, spaces, …). */
function targetOf(ref: ContentRef, from: string): LinkUsage['target'] | undefined {
  // A reference into another space is that space's link, not this revision's.
  if ((ref as { space?: unknown }).space) return undefined;
  if (ref.kind === 'page' && typeof ref.page === 'string') return { kind: 'page', page: ref.page };
  if (ref.kind === 'anchor' && typeof ref.anchor === 'string') return { kind: 'page', page: typeof ref.page === 'string' ? ref.page : from, anchor: ref.anchor };
  if (ref.kind === 'file' && typeof ref.file === 'string') return { kind: 'file', file: ref.file };
  if (ref.kind === 'url' && typeof ref.url === 'string') return { kind: 'url', url: ref.url };
  return undefined;
}

function keyOf(t: LinkUsage['target']): string {
  if (t.kind === 'page') return `page:${t.page}${t.anchor ? `#${t.anchor}` : ''}`;
  if (t.kind === 'file') return `file:${t.file}`;
  return `url:${t.url}`;
}

/**
 * Every link of a revision, grouped by target, with its status decided against that revision: a page
 * or file that is not in it is `broken`; a URL under one of `appOrigins` is `in-app`; other URLs are
 * `ok` (they are never fetched to decide). Computed from the references each page version recorded
 * when it was written, so a page deleted in a revision breaks the links to it in that revision.
 */
export function linkIndex(pages: Map<string, PageNode>, fileIds: Set<string>, appOrigins: readonly string[]): LinkUsage[] {
  const usages = new Map<string, LinkUsage>();
  for (const page of pages.values()) {
    for (const ref of page.refs ?? []) {
      const target = targetOf(ref, page.id);
      if (!target) continue;
      const key = keyOf(target);
      let usage = usages.get(key);
      if (!usage) {
        const status: LinkStatus =
          target.kind === 'page'
            ? pages.has(target.page)
              ? 'ok'
              : 'broken'
            : target.kind === 'file'
              ? fileIds.has(target.file)
                ? 'ok'
                : 'broken'
              : appOrigins.some((o) => target.url.startsWith(`${o}/`) || target.url === o)
                ? 'in-app'
                : 'ok';
        usage = { key, status, target, from: [] };
        usages.set(key, usage);
      }
      if (!usage.from.includes(page.id)) usage.from.push(page.id);
    }
  }
  return [...usages.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

export interface LinkStats {
  total: number;
  broken: { total: number };
}

export function statsOf(usages: LinkUsage[]): LinkStats {
  return { total: usages.length, broken: { total: usages.filter((u) => u.status === 'broken').length } };
}

/** A keyset page of a sorted list (the cursor holds the last key served, found again by binary search). */
export function pageOfSorted<T>(rows: T[], keyOf: (row: T) => string, request: { page?: string; limit?: number } | undefined) {
  const limit = resolveLimit(request?.limit);
  const cursor: Cursor | undefined = decodeCursor(request?.page);
  let start = 0;
  if (cursor) {
    let lo = 0;
    let hi = rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (keyOf(rows[mid]) <= cursor.id) lo = mid + 1;
      else hi = mid;
    }
    start = lo;
  }
  const items = rows.slice(start, start + limit);
  const more = start + limit < rows.length;
  return { items, count: rows.length, nextPage: more && items.length ? encodeCursor({ id: keyOf(items[items.length - 1]) }) : undefined };
}
