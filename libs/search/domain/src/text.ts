// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- the package ships no types; its declaration travels with this file
/// <reference path="./snowball-stemmers.d.ts" />
import { newStemmer } from 'snowball-stemmers';

const english = newStemmer('english');

/** Lower case without diacritics: Unicode canonical decomposition (NFKD), combining marks dropped. */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** A word as it was written (`start`, `end` in the original text) and its folded form. */
export interface Word {
  start: number;
  end: number;
  folded: string;
}

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

/** The words of a text, in order, with their place in it. */
export function words(text: string): Word[] {
  const out: Word[] = [];
  for (const m of text.matchAll(WORD)) {
    const folded = fold(m[0]).replace(/['’]/g, '');
    if (folded) out.push({ start: m.index ?? 0, end: (m.index ?? 0) + m[0].length, folded });
  }
  return out;
}

const STEMS = new Map<string, string>();
const MAX_STEMS = 100000;

/** The index term of a folded word: its Snowball (Porter 2) English stem (remembered: texts repeat their words). */
export function stem(folded: string): string {
  if (folded.length <= 2) return folded;
  let stemmed = STEMS.get(folded);
  if (stemmed === undefined) {
    stemmed = english.stem(folded);
    if (STEMS.size >= MAX_STEMS) STEMS.clear();
    STEMS.set(folded, stemmed);
  }
  return stemmed;
}

/** The terms of a text, in order. */
export function terms(text: string): string[] {
  return words(text).map((w) => stem(w.folded));
}
