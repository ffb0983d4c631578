/**
 * BM25F with impacts computed when a section is indexed: a section's weight for a term is
 * idf(term) × impact(term, section). The impact is BM25's saturated term frequency, the section's
 * heading (and its page's title) counting TITLE_WEIGHT times its body, its length normalised against
 * a fixed pivot (PIVOT_LEN) rather than the corpus' running average, so it never has to be recomputed
 * when other sections change. Postings ordered by impact let a query read the best sections of each
 * term first and stop (see combinePostings).
 */
export const K1 = 1.2;
export const B = 0.75;
export const TITLE_WEIGHT = 4;
/** The section length (terms, title counted once) the normalisation pivots on: a typical documentation section. */
export const PIVOT_LEN = 120;

export function idf(df: number, n: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** BM25's term-frequency part for a term seen `tf` times in the body and `ttf` times in the title of a section of `len` terms. */
export function impact(tf: number, ttf: number, len: number): number {
  const f = tf + TITLE_WEIGHT * ttf;
  if (!f) return 0;
  const norm = K1 * (1 - B + (B * len) / PIVOT_LEN);
  return Math.round(((f * (K1 + 1)) / (f + norm)) * 1e6) / 1e6;
}

/** Every term of a section with its impact. */
export function impactsOf(s: { tf: Record<string, number>; ttf: Record<string, number>; len: number }): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of new Set([...Object.keys(s.tf), ...Object.keys(s.ttf)])) out.set(t, impact(s.tf[t] ?? 0, s.ttf[t] ?? 0, s.len));
  return out;
}

/**
 * A section's score for the query's term groups (each group: the index terms that stand for one query
 * word, e.g. the terms a prefix matches), given each term's weight in it (idf × impact, 0 when absent).
 * A group counts its best term; a section matching fewer of the words scores less.
 */
export function scoreOf(groups: string[][], weight: (term: string) => number): number {
  let score = 0;
  let matched = 0;
  for (const group of groups) {
    let best = 0;
    for (const term of group) best = Math.max(best, weight(term));
    if (best > 0) matched++;
    score += best;
  }
  return groups.length ? (score * matched) / groups.length : 0;
}
