import { stem, words } from './text';

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * An excerpt of `text` around the first word matching the query, at most about `size` characters,
 * with each matching word wrapped in <mark>…</mark> (the rest escaped as HTML text).
 */
export function excerpt(text: string, matches: (term: string, folded: string) => boolean, size = 200): string {
  const all = words(text);
  const hits = all.filter((w) => matches(stem(w.folded), w.folded));
  const first = hits[0];
  let from = 0;
  if (first && first.start > size / 3) {
    from = first.start - Math.floor(size / 3);
    const space = text.indexOf(' ', from);
    if (space >= 0 && space < first.start) from = space + 1;
  }
  let to = Math.min(text.length, from + size);
  if (to < text.length) {
    const space = text.lastIndexOf(' ', to);
    if (space > from) to = space;
  }
  let out = from > 0 ? '…' : '';
  let at = from;
  for (const h of hits) {
    if (h.start < from || h.end > to) continue;
    out += escape(text.slice(at, h.start)) + '<mark>' + escape(text.slice(h.start, h.end)) + '</mark>';
    at = h.end;
  }
  out += escape(text.slice(at, to)) + (to < text.length ? '…' : '');
  return out.replace(/\s+/g, ' ').trim();
}

/** Whether the terms of `text` hold `phrase` (index terms) in a row. */
export function holdsPhrase(textTerms: string[], phrase: string[]): boolean {
  outer: for (let i = 0; i + phrase.length <= textTerms.length; i++) {
    for (let j = 0; j < phrase.length; j++) if (textTerms[i + j] !== phrase[j]) continue outer;
    return true;
  }
  return false;
}
