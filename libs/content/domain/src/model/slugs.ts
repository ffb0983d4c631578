import { slug as slugOf } from 'github-slugger';
import { DomainError } from '@bindery/platform/errors';

export const SLUG_MAX = 100;

/** A slug from a title, GitHub's way (lower case, spaces to hyphens, punctuation dropped); never empty. */
export function slugFromTitle(title: string): string {
  const s = slugOf(title).slice(0, SLUG_MAX).replace(/-+$/, '');
  return s || 'page';
}

/** The slugs already used in a place. */
export interface TakenSlugs {
  has(slug: string): boolean;
}

/** A derived slug made unique among its siblings' slugs by a numeric suffix (`intro`, `intro-1`, …). */
export function uniqueSlug(base: string, taken: TakenSlugs): string {
  if (!taken.has(base)) return base;
  for (let n = 1; ; n += 1) {
    const suffix = `-${n}`;
    const candidate = `${base.slice(0, SLUG_MAX - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** A slug the caller chose: kept as given, refused when a sibling already has it. */
export function assertSlugFree(slug: string, taken: TakenSlugs): void {
  if (!/^[^/?#\s]*$/.test(slug)) throw new DomainError('invalid', `The slug "${slug}" may not contain "/", "?", "#" or spaces.`);
  if (taken.has(slug)) throw new DomainError('invalid', `Another page in the same place already has the slug "${slug}".`);
}
