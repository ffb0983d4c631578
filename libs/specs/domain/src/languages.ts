import { invalid } from '@bindery/platform/errors';

export const MAX_LANGUAGES = 100;

/**
 * The languages of translation settings as BCP 47 tags in their canonical form (`en-us` → `en-US`,
 * `iw` → `he`), each once, in the order given. A tag Intl does not accept is refused, naming it.
 * Intl.getCanonicalLocales is the validator: it implements BCP 47 / RFC 5646 well-formedness and
 * canonicalisation as ECMA-402 specifies, maintained with Node's ICU.
 */
export function canonicalLanguages(tags: readonly string[]): string[] {
  if (tags.length > MAX_LANGUAGES) throw invalid(`languages: at most ${MAX_LANGUAGES} languages.`);
  const out: string[] = [];
  for (const [i, tag] of tags.entries()) {
    let canonical: string;
    try {
      if (typeof tag !== 'string' || tag.trim() !== tag || tag === '') throw new RangeError('not a tag');
      [canonical] = Intl.getCanonicalLocales(tag);
    } catch {
      throw invalid(`languages[${i}]: ${JSON.stringify(String(tag).slice(0, 40))} is not a BCP 47 language tag (e.g. "en", "fr-CA", "zh-Hant").`);
    }
    if (!out.includes(canonical)) out.push(canonical);
  }
  return out;
}
