import { stem, words } from './text';

/**
 * A parsed query: the terms to rank by, the phrases (in double quotes) that must appear as written,
 * and the last word typed, which also matches as a prefix (unless it closes a phrase or ends with a space).
 */
export interface ParsedQuery {
  terms: string[];
  phrases: string[][];
  /** folded, not stemmed */
  prefix?: string;
}

export function parseQuery(query: string): ParsedQuery {
  const phrases: string[][] = [];
  const termSet = new Set<string>();
  const rest = query.replace(/"([^"]*)"?/g, (_, inner: string) => {
    const phrase = words(inner).map((w) => stem(w.folded));
    if (phrase.length > 1) phrases.push(phrase);
    phrase.forEach((t) => termSet.add(t));
    return ' ';
  });
  const loose = words(rest);
  loose.forEach((w) => termSet.add(stem(w.folded)));
  const endsLoose = loose.length > 0 && /[\p{L}\p{N}]$/u.test(query.trimEnd()) && !/"\s*$/.test(query) && query === query.trimEnd();
  const prefix = endsLoose ? loose[loose.length - 1].folded : undefined;
  return { terms: [...termSet], phrases, prefix };
}

/** Index terms a prefix may stand for: its own stem and the stems it starts with (at least 3 letters), for an `$in`. */
export function prefixStems(prefix: string): string[] {
  const out = new Set<string>([stem(prefix)]);
  for (let i = 3; i <= prefix.length; i++) out.add(prefix.slice(0, i));
  return [...out];
}

/** Whether a term is matched by the prefix typed last. */
export function matchesPrefix(term: string, prefix: string): boolean {
  return term.startsWith(prefix) || (term.length >= 3 && prefix.startsWith(term)) || term === stem(prefix);
}
