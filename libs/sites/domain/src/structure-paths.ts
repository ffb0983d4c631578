import { slug } from 'github-slugger';
import { invalid } from '@bindery/platform/errors';

/** The longest path of a section or site space (the official SiteSectionPath and SiteSpacePath). */
export const PATH_MAX = 100;

/** A path derived from a title (lower case, hyphens, punctuation dropped); `fallback` when nothing is left. */
export function pathFromTitle(title: string, fallback: string): string {
  const s = slug(title).slice(0, PATH_MAX).replace(/-+$/, '');
  return s || fallback;
}

/** The `attempt`-th candidate for a derived path: the base, then `base-2`, `base-3`, … */
export function pathCandidate(base: string, attempt: number): string {
  if (attempt <= 1) return base;
  const suffix = `-${attempt}`;
  return `${base.slice(0, PATH_MAX - suffix.length)}${suffix}`;
}

/** The first candidate of `base` that none of `taken` holds. */
export function freePath(base: string, taken: ReadonlySet<string>): string {
  for (let attempt = 1; ; attempt += 1) {
    const candidate = pathCandidate(base, attempt);
    if (!taken.has(candidate)) return candidate;
  }
}

/** A path a caller chose: one segment of a URL (no "/", "?", "#", "%" or white space; not "." or ".."). */
export function assertPath(path: string, what: string): void {
  if (!/^[^/?#%\s]+$/.test(path) || path === '.' || path === '..') throw invalid(`${what} must be one segment of a URL: no "/", "?", "#", "%" or white space.`);
}
