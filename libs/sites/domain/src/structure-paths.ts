import { invalid } from '@bindery/platform/errors';

/**
 * Paths of sections and site spaces: one segment of a published URL each, a slug (lower-case ASCII
 * letters, digits and single hyphens, 1 to 100 characters), unique among the site's sections, or
 * among the site spaces of one section (or of the root). Derived ones come from a title with `-2`,
 * `-3` … suffixes while taken; chosen ones must be slugs (so no path can be taken for the reader's
 * own segments such as `~share`).
 */
const MAX = 100;
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,98}[a-z0-9])?$/;

/** A path from a title (accents dropped, lower case, other runs a hyphen); `fallback` when nothing is left. */
export function structurePath(title: string, fallback: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, MAX)
    .replace(/-+$/, '');
  return slug || fallback;
}

/** The first of `base`, `base-2`, `base-3` … that `taken` does not hold (never over 100 characters). */
export function freeStructurePath(base: string, taken: { has(path: string): boolean }): string {
  for (let n = 1; ; n += 1) {
    const suffix = n === 1 ? '' : `-${n}`;
    const candidate = n === 1 ? base : `${base.slice(0, MAX - suffix.length).replace(/-+$/, '')}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** A path a caller chose: kept as given when it is a slug; otherwise a 400 naming the field. */
export function checkStructurePath(path: string, what: string): string {
  if (!SLUG.test(path)) throw invalid(`${what} must be 1 to 100 lower-case letters, digits or hyphens, starting and ending with a letter or digit.`);
  return path;
}
