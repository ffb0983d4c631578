import { scoreOf } from './ranking';

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
 */
export function combinePostings(groups: string[][], lists: TermPostings[]): Candidate[] {
  const byTerm = new Map(lists.map((l) => [l.term, l]));
  const ids = new Set<string>();
  for (const l of lists) for (const id of l.postings.keys()) ids.add(id);
  const out: Candidate[] = [];
  for (const id of ids) {
    const unknown = lists.filter((l) => l.truncated && !l.postings.has(id)).map((l) => l.term);
    const read = (t: string) => {
      const l = byTerm.get(t);
      return l ? l.idf * (l.postings.get(id) ?? 0) : 0;
    };
    const score = scoreOf(groups, read);
    const bound = unknown.length ? scoreOf(groups, (t) => (unknown.includes(t) ? byTerm.get(t)!.idf * byTerm.get(t)!.floor : read(t))) : score;
    out.push({ id, score, bound, unknown });
  }
  return out.sort((a, b) => b.bound - a.bound || a.id.localeCompare(b.id));
}
