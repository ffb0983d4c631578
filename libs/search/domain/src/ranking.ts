/** BM25F over a section: its heading (and its page's title) counts TITLE_WEIGHT times its body. */
export const K1 = 1.2;
export const B = 0.75;
export const TITLE_WEIGHT = 4;

export interface SectionStats {
  /** body term frequencies */
  tf: Record<string, number>;
  /** title term frequencies (the heading, and the page title) */
  ttf: Record<string, number>;
  len: number;
}

export interface CorpusStats {
  sections: number;
  avgLen: number;
  /** sections holding each term */
  df: Record<string, number>;
}

export function idf(df: number, n: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/**
 * The score of a section for the query's term groups (each group: the index terms that stand for one
 * query word, e.g. the stems a prefix matches); a section matching fewer of the words scores less.
 */
export function scoreSection(s: SectionStats, groups: string[][], corpus: CorpusStats): number {
  let score = 0;
  let matched = 0;
  const norm = K1 * (1 - B + (B * s.len) / Math.max(1, corpus.avgLen));
  for (const group of groups) {
    let best = 0;
    for (const term of group) {
      const f = (s.tf[term] ?? 0) + TITLE_WEIGHT * (s.ttf[term] ?? 0);
      if (!f) continue;
      const w = (idf(corpus.df[term] ?? 0, corpus.sections) * f * (K1 + 1)) / (f + norm);
      if (w > best) best = w;
    }
    if (best > 0) matched++;
    score += best;
  }
  return groups.length ? (score * matched) / groups.length : 0;
}
