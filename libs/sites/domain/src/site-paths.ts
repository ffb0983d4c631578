import { invalid } from '@bindery/platform/errors';

/**
 * The names a site is reached by: its basename (the path of the site under the reader's public
 * URL, unique across the instance), the paths of its sections (unique among the site's sections)
 * and of its site spaces (unique among the site spaces of one section, or of the root). Each is one
 * segment of a published URL and a slug: lower-case ASCII letters, digits and single hyphens, at
 * most 100 characters — so none can be taken for the reader's own segments such as `~share`.
 * Derived ones come from a title, with `-2`, `-3` … suffixes while taken.
 */
export const PATH_MAX = 100;

/** A basename or path as a site takes it: a slug of 1 to 100 characters. */
export const SLUG_PATTERN = '^[a-z0-9](?:[a-z0-9-]{0,98}[a-z0-9])?$';
const SLUG = new RegExp(SLUG_PATTERN);

/**
 * Basenames a site may not take: the reader answers these paths itself (probes), so a site there
 * would never be reached. Derived basenames step over them like over a taken name.
 */
export const RESERVED_BASENAMES: ReadonlySet<string> = new Set(['healthz', 'readyz']);

/**
 * A slug of `text`: accents dropped, lower case, every run of other characters a single hyphen,
 * at most `max` characters; '' when nothing of the text is a letter or digit of ASCII.
 */
export function slugOf(text: string, max = PATH_MAX): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, max)
    .replace(/-+$/, '');
}

/** The `n`th candidate of a name derived from `base`: `base` itself, then `base-2`, `base-3` … (never over 100 characters). */
export function pathCandidate(base: string, n: number): string {
  if (n <= 1) return base;
  const suffix = `-${n}`;
  return `${base.slice(0, PATH_MAX - suffix.length).replace(/-+$/, '')}${suffix}`;
}

/** The first candidate from `base` that `taken` does not hold. */
export function uniquePath(base: string, taken: { has(path: string): boolean }): string {
  for (let n = 1; ; n += 1) {
    const candidate = pathCandidate(base, n);
    if (!taken.has(candidate)) return candidate;
  }
}

/** The basename a site titled `title` is given before collisions are counted ("site" for a title with no ASCII letter or digit). */
export function basenameOf(title: string): string {
  return slugOf(title) || 'site';
}

/** The path of a site space showing a space titled `title`, before collisions are counted ("space" when the title gives none). */
export function siteSpacePath(title: string): string {
  return slugOf(title) || 'space';
}

/** The path of a section titled `title`, before collisions are counted ("section" when the title gives none). */
export function sectionPath(title: string): string {
  return slugOf(title) || 'section';
}

/** Paths for site spaces of these space titles, unique among themselves and what `taken` holds, in order. */
export function uniqueSiteSpacePaths(titles: string[], taken: Iterable<string> = []): string[] {
  const used = new Set(taken);
  return titles.map((title) => {
    const path = uniquePath(siteSpacePath(title), used);
    used.add(path);
    return path;
  });
}

/** Whether `name` is a slug as a basename or path must be. */
export function isSlug(name: string): boolean {
  return SLUG.test(name);
}

/** A path (or basename) a caller chose: kept as given when it is a slug; otherwise a 400 naming the field. */
export function checkPath(path: string, what: string): string {
  if (!isSlug(path)) throw invalid(`${what} must be 1 to 100 lower-case letters, digits or hyphens, starting and ending with a letter or digit.`);
  return path;
}

/** A basename a caller chose: kept as given when it is a slug that is not reserved; otherwise a 400. */
export function checkBasename(basename: string): string {
  checkPath(basename, 'basename');
  if (RESERVED_BASENAMES.has(basename)) throw invalid(`The basename "${basename}" is reserved.`);
  return basename;
}
