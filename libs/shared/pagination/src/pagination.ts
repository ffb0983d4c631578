import { invalid } from '@bindery/platform/errors';

/**
 * Keyset pagination: a cursor holds the sort key and id of the last item served, so the next page
 * starts with a range query on an index and its cost does not grow with its depth.
 */
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 1000;

export type SortValue = string | number;
export interface Cursor {
  /** sort key of the last item served (absent when sorting by id alone) */
  k?: SortValue;
  /** id of the last item served */
  id: string;
}

export interface PageRequest {
  page?: string;
  limit?: number;
}

export interface Page<T> {
  items: T[];
  count: number;
  nextPage?: string;
}

export function resolveLimit(limit: number | undefined): number {
  if (limit === undefined || limit === 0) return DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw invalid(`limit must be an integer from 1 to ${MAX_LIMIT}.`);
  return limit;
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

export function decodeCursor(page: string | undefined): Cursor | undefined {
  if (!page) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(page, 'base64url').toString('utf8'));
    const okKey = parsed.k === undefined || typeof parsed.k === 'string' || typeof parsed.k === 'number';
    if (parsed && typeof parsed.id === 'string' && okKey) return { k: parsed.k, id: parsed.id };
  } catch {
    // fall through to the same answer as a well-formed but foreign cursor
  }
  throw invalid('page is not a cursor this list gave out.');
}

/**
 * The filter that continues after `cursor` in the order (sortField dir, _id dir). A plain object in
 * MongoDB's query language, built here so every list paginates the same way.
 */
export function keysetFilter(cursor: Cursor | undefined, sortField: string | undefined, dir: 1 | -1 = 1): Record<string, unknown> {
  if (!cursor) return {};
  const op = dir === 1 ? '$gt' : '$lt';
  if (!sortField || sortField === '_id') return { _id: { [op]: cursor.id } };
  return { $or: [{ [sortField]: { [op]: cursor.k } }, { [sortField]: cursor.k, _id: { [op]: cursor.id } }] };
}

/** Builds a page from `limit + 1` fetched rows: the extra row only tells that a next page exists. */
export function toPage<R, T>(rows: R[], limit: number, count: number, keyOf: (row: R) => Cursor, map: (row: R) => T): Page<T> {
  const visible = rows.slice(0, limit);
  const page: Page<T> = { items: visible.map(map), count };
  if (rows.length > limit && visible.length) page.nextPage = encodeCursor(keyOf(visible[visible.length - 1]));
  return page;
}
