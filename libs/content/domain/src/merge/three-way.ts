import { canonicalJson } from '../model/content-hash';

/** Equal as content: canonical JSON, so key order does not matter and an absent field equals an undefined one. */
export function same(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/**
 * The three-way rule for one value: a change on one side wins over the base, the same change on both
 * sides is taken once, different changes on both sides conflict (the answer is then ours', for the
 * caller to report).
 */
export function threeWay<T>(base: T, ours: T, theirs: T): { value: T; from: 'ours' | 'theirs'; conflict: boolean } {
  if (same(ours, theirs) || same(theirs, base)) return { value: ours, from: 'ours', conflict: false };
  if (same(ours, base)) return { value: theirs, from: 'theirs', conflict: false };
  return { value: ours, from: 'ours', conflict: true };
}
