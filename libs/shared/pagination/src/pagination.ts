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

/**
 * The one form of a cursor: `c1.`, the id of the last item served (base64url), then optionally its
 * sort key: `.s` and a text (base64url) or `.n` and a number. Every string of this form is a cursor
 * (one naming no item simply continues after that position), so a `page` parameter declared with
 * this pattern accepts exactly what the lists accept.
 */
export const CURSOR_PATTERN = '^c1\\.[A-Za-z0-9_-]+(\\.(s[A-Za-z0-9_-]*|n-?[0-9]+(\\.[0-9]+)?(e[+-][0-9]+)?))?$';
const CURSOR = new RegExp(CURSOR_PATTERN);

const toBase64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
const fromBase64url = (text: string) => Buffer.from(text, 'base64url').toString('utf8');

export function encodeCursor(cursor: Cursor): string {
  let key = '';
  if (typeof cursor.k === 'string') key = `.s${toBase64url(cursor.k)}`;
  else if (typeof cursor.k === 'number') {
    if (!Number.isFinite(cursor.k)) throw new Error(`cursor sort key ${cursor.k} is not a finite number`);
    key = `.n${cursor.k}`;
  }
  return `c1.${toBase64url(cursor.id)}${key}`;
}

export function decodeCursor(page: string | undefined): Cursor | undefined {
  if (!page) return undefined;
  if (!CURSOR.test(page)) throw invalid('page is not a cursor this list gave out: pass next.page of the previous page.');
  const [, id, key] = splitCursor(page);
  const cursor: Cursor = { id: fromBase64url(id) };
  if (key !== undefined) cursor.k = key.startsWith('s') ? fromBase64url(key.slice(1)) : Number(key.slice(1));
  return cursor;
}

/** `c1.<id>.<key>` → ['c1', id, key]; the key itself may hold a dot (`n1.5`). */
function splitCursor(page: string): [string, string, string | undefined] {
  const first = page.indexOf('.');
  const second = page.indexOf('.', first + 1);
  if (second < 0) return [page.slice(0, first), page.slice(first + 1), undefined];
  return [page.slice(0, first), page.slice(first + 1, second), page.slice(second + 1)];
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
