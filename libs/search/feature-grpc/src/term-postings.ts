import { Candidate, idf, matchesPrefix, MinHeap, prefixStems, scoreOf, TermPostings } from '@bindery/search/domain';
import type { IndexStore } from '@bindery/search/data-access';

// Reading the index for one query: the terms a prefix stands for, document frequencies, each term's
// best postings, and the exact weights of the candidates that can reach the first results.

/** Postings read per query term: its best sections among the spaces searched. */
export const POSTINGS_PER_TERM = 500;
/** Spaces whose postings one database query merges (MongoDB merges at most 200 index ranges in order). */
const SPACES_PER_MERGE = 150;
/** Postings of the query's rarest term read: every section holding all the words is among them while it holds fewer. */
const RAREST_POSTINGS = 2000;
/** Unread (section, term) pairs looked up, best candidates first, so the first results are ranked exactly. */
const MAX_LOOKUPS = 4000;
const LOOKUPS_PER_ROUND = 400;
/** Sections ranked exactly (when MAX_LOOKUPS allows): the first pages of results. */
const EXACT_TOP = 50;
/** A last word this long or longer also stands for the terms it starts. */
const MIN_PREFIX = 2;
const MAX_EXPANSIONS = 8;
/** Postings read per term a prefix stands for (a word half typed is a weaker signal). */
const PREFIX_POSTINGS = 200;
/** Vocabulary entries read to expand a prefix. */
const MAX_PREFIX_SCAN = 5000;

/**
 * The index terms the last word typed stands for: those it starts (the most frequent among the
 * spaces searched first, at most MAX_EXPANSIONS), its own stem, and the stems it starts with.
 */
export async function prefixTerms(store: IndexStore, spaceIds: string[], prefix: string): Promise<string[]> {
  const out = new Set(prefixStems(prefix));
  if (prefix.length >= MIN_PREFIX) {
    (await store.termsStartingWith(spaceIds, prefix, MAX_PREFIX_SCAN, MAX_EXPANSIONS)).forEach((t) => out.add(t));
  }
  return [...out].filter((t) => matchesPrefix(t, prefix));
}

/** Sections holding each term in the given spaces. */
export function documentFrequencies(store: IndexStore, spaceIds: string[], terms: string[]): Promise<Map<string, number>> {
  return store.documentFrequencies(spaceIds, terms);
}

/** The best postings of each term present in the spaces (the rarest of the fixed words gets a longer list). */
export function termLists(store: IndexStore, spaceIds: string[], fixedTerms: string[], terms: string[], df: Map<string, number>, sections: number): Promise<TermPostings[]> {
  const present = terms.filter((t) => df.get(t));
  const rarest = fixedTerms.filter((t) => df.get(t)).sort((a, b) => df.get(a)! - df.get(b)!)[0];
  return Promise.all(
    present.map((t) =>
      bestPostings(
        store,
        spaceIds,
        t,
        idf(df.get(t)!, Math.max(sections, df.get(t)!)),
        t === rarest ? RAREST_POSTINGS : fixedTerms.includes(t) ? POSTINGS_PER_TERM : PREFIX_POSTINGS,
      ),
    ),
  );
}

/**
 * The `limit` sections of the given spaces where the term weighs most. Spaces go by
 * groups the database merges in impact order (one index range per space), so a query reads
 * about as many index keys as it keeps, whatever the size of the spaces.
 */
async function bestPostings(store: IndexStore, spaceIds: string[], term: string, weight: number, limit: number): Promise<TermPostings> {
  const groups: string[][] = [];
  for (let i = 0; i < spaceIds.length; i += SPACES_PER_MERGE) groups.push(spaceIds.slice(i, i + SPACES_PER_MERGE));
  const read = await Promise.all(groups.map((g) => store.bestPostings(g, term, limit)));
  const rows = read
    .flat()
    .sort((a, b) => b.i - a.i)
    .slice(0, limit);
  // Cut when a space group filled its limit, or when merging the groups dropped rows.
  const truncated = read.some((r) => r.length === limit) || read.reduce((a, r) => a + r.length, 0) > limit;
  return { term, idf: weight, postings: new Map(rows.map((r) => [r.c, r.i])), truncated, floor: rows.length ? rows[rows.length - 1].i : 0 };
}

/**
 * The candidates that could still enter the first EXACT_TOP results get their unread terms looked
 * up, so the top of the ranking is exact; the rest keep what was read. In rounds, best bound first:
 * each round's exact scores raise the EXACT_TOP-th best score, and a candidate whose bound is not
 * above it cannot enter (at most MAX_LOOKUPS pairs in all).
 */
export async function complete(store: IndexStore, groups: string[][], lists: TermPostings[], candidates: Candidate[]): Promise<Candidate[]> {
  const byTerm = new Map(lists.map((l) => [l.term, l]));
  let lookups = 0;
  let next = 0;
  while (next < candidates.length && lookups < MAX_LOOKUPS) {
    // The EXACT_TOP-th best score as known now (each section once: exact where looked up, else its lower bound).
    const best = new MinHeap(EXACT_TOP);
    candidates.forEach((c) => best.offer(c.score));
    const open: Candidate[] = [];
    let pairs = 0;
    for (; next < candidates.length && pairs < LOOKUPS_PER_ROUND; next++) {
      const c = candidates[next];
      if (!c.unknown.length) continue;
      if (best.full && c.bound <= best.min) break;
      open.push(c);
      pairs += c.unknown.length;
    }
    if (!open.length) break;
    lookups += pairs;
    const ids = open.flatMap((c) => c.unknown.map((t) => `${c.id}|${t}`));
    const found = await store.impacts(ids);
    for (const c of open) {
      c.score = scoreOf(groups, (t) => {
        const l = byTerm.get(t);
        return l ? l.idf * (l.postings.get(c.id) ?? found.get(`${c.id}|${t}`) ?? 0) : 0;
      });
      c.bound = c.score;
      c.unknown = [];
    }
  }
  return candidates.sort(byCandidate);
}

const byCandidate = (a: Candidate, b: Candidate) => b.score - a.score || a.id.localeCompare(b.id);
