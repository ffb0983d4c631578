/** The best postings of one term among the spaces searched, by impact, at most the number asked. */
export interface TermPostings {
  term: string;
  idf: number;
  /** section id → impact */
  postings: Map<string, number>;
  /** the list was cut at the number asked: a section absent from it may still hold the term, with an impact at most `floor` */
  truncated: boolean;
  /** the smallest impact read */
  floor: number;
}

/** A section found in some term's best postings, with what is known of its score. */
export interface Candidate {
  id: string;
  /** the score from the postings read (exact when `unknown` is empty) */
  score: number;
  /** the highest score it could have: unread terms at their list's floor */
  bound: number;
  /** the terms whose impact in this section was not read (their lists were cut before it) */
  unknown: string[];
}

/**
 * Every section in the postings read, scored with what was read: a term of a truncated list the
 * section is absent from is unknown (between 0 and the list's floor). Sorted by bound, best first.
 * (The arithmetic of scoreOf, unrolled: this runs over thousands of candidates per query.)
 */
export function combinePostings(groups: string[][], lists: TermPostings[]): Candidate[] {
  const byTerm = new Map(lists.map((l) => [l.term, l]));
  const groupLists = groups.map((g) => g.map((t) => byTerm.get(t)).filter((l): l is TermPostings => !!l));
  const ids = new Set<string>();
  for (const l of lists) for (const id of l.postings.keys()) ids.add(id);
  const out: Candidate[] = [];
  for (const id of ids) {
    const unknown: string[] = [];
    let score = 0;
    let matched = 0;
    let bound = 0;
    let mayMatch = 0;
    for (const group of groupLists) {
      let best = 0;
      let most = 0;
      for (const l of group) {
        const i = l.postings.get(id);
        const w = l.idf * (i ?? l.floor);
        if (i === undefined) {
          if (!l.truncated) continue;
          unknown.push(l.term);
        } else if (w > best) best = w;
        if (w > most) most = w;
      }
      if (best > 0) matched++;
      if (most > 0) mayMatch++;
      score += best;
      bound += most;
    }
    const g = groups.length || 1;
    out.push({ id, score: (score * matched) / g, bound: (bound * mayMatch) / g, unknown });
  }
  return out.sort((a, b) => b.bound - a.bound || a.id.localeCompare(b.id));
}
