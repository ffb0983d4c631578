import { invalid } from '@bindery/platform/errors';
import { decodeCursor, encodeCursor, resolveLimit } from '@bindery/shared/pagination';
import {
  Candidate,
  combinePostings,
  excerpt,
  holdsPhrase,
  idf,
  matchesPrefix,
  parseQuery,
  prefixStems,
  scoreOf,
  stem,
  TermPostings,
  terms as termsOf,
} from '@bindery/search/domain';
import type { IndexStore, SectionRecord } from './index-store';

export const MAX_QUERY = 512;
/** Postings read per query term: its best sections among the spaces searched. */
export const POSTINGS_PER_TERM = 500;
/** Spaces whose postings one database query merges (MongoDB merges at most 200 index ranges in order). */
const SPACES_PER_MERGE = 150;
/** Postings of the query's rarest term read: every section holding all the words is among them while it holds fewer. */
const RAREST_POSTINGS = 2000;
/** Unread (section, term) pairs looked up, best candidates first, so the first results are ranked exactly. */
const MAX_LOOKUPS = 4000;
/** Candidates checked for a phrase, best first. */
const PHRASE_CHECKS = 1000;
/** A last word this long or longer also stands for the terms it starts. */
const MIN_PREFIX = 2;
const MAX_EXPANSIONS = 12;
/** Vocabulary entries read to expand a prefix. */
const MAX_PREFIX_SCAN = 5000;
const SECTIONS_PER_PAGE = 5;
const PAGES_PER_SPACE = 20;

export interface RankedPage {
  spaceId: string;
  pageId: string;
  score: number;
  sections: { id: string; score: number }[];
}

export interface PageResultJson {
  id: string;
  title: string;
  path: string;
  spaceId: string;
  sections: { id: string; title: string; path: string; body: string; anchor: string }[];
}

export function checkQuery(query: string): void {
  if (query.length > MAX_QUERY) throw invalid(`query must be at most ${MAX_QUERY} characters.`);
  if (!query.trim()) throw invalid('query must not be empty.');
}

/** The pages of the given spaces matching the query, best first (ties: by space and page id). */
export async function rankPages(store: IndexStore, spaceIds: string[], query: string): Promise<{ pages: RankedPage[]; matches: (term: string, folded: string) => boolean }> {
  const parsed = parseQuery(query);
  const none = { pages: [], matches: () => false };
  if (!parsed.terms.length || !spaceIds.length) return none;
  const prefixStem = parsed.prefix ? stem(parsed.prefix) : undefined;
  const fixedTerms = parsed.terms.filter((t) => t !== prefixStem || parsed.phrases.some((p) => p.includes(t)));
  // Term groups: one per query word; the last word typed stands for the terms it is a prefix of.
  const groups: string[][] = fixedTerms.map((t) => [t]);
  if (parsed.prefix) groups.push(await prefixTerms(store, spaceIds, parsed.prefix));
  const allTerms = [...new Set(groups.flat())];
  const [df, sections] = await Promise.all([documentFrequencies(store, spaceIds, allTerms), store.sectionCount(spaceIds)]);
  const present = allTerms.filter((t) => df.get(t));
  const rarest = fixedTerms.filter((t) => df.get(t)).sort((a, b) => df.get(a)! - df.get(b)!)[0];
  const lists = await Promise.all(
    present.map((t) => bestPostings(store, spaceIds, t, idf(df.get(t)!, Math.max(sections, df.get(t)!)), t === rarest ? RAREST_POSTINGS : POSTINGS_PER_TERM)),
  );
  let candidates = combinePostings(groups, lists);
  candidates = await complete(store, groups, lists, candidates);
  let scored = candidates.filter((c) => c.score > 0);
  if (parsed.phrases.length) scored = await withPhrases(store, scored.slice(0, PHRASE_CHECKS), parsed.phrases);
  const pages = new Map<string, RankedPage>();
  for (const { id, score } of scored) {
    const [spaceId, pageId] = sectionKey(id);
    const key = `${spaceId}:${pageId}`;
    const page = pages.get(key) ?? { spaceId, pageId, score: 0, sections: [] };
    page.sections.push({ id, score });
    page.score = Math.max(page.score, score);
    pages.set(key, page);
  }
  const ranked = [...pages.values()];
  for (const p of ranked) {
    // Other matching sections of the page add a little: a page about the subject beats one passing mention.
    const rest = p.sections.reduce((a, s) => a + s.score, 0) - p.score;
    p.score = Number((p.score + 0.1 * rest).toPrecision(12));
    p.sections.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
  }
  ranked.sort(byScore);
  const termSet = new Set(allTerms);
  return { pages: ranked, matches: (t) => termSet.has(t) };
}

/** A section id `<space>:<page>:<n>` as its space and page. */
function sectionKey(id: string): [string, string] {
  const last = id.lastIndexOf(':');
  const first = id.indexOf(':');
  return [id.slice(0, first), id.slice(first + 1, last)];
}

/**
 * The index terms the last word typed stands for: those it starts (the most frequent among the
 * spaces searched first, at most MAX_EXPANSIONS), its own stem, and the stems it starts with.
 */
async function prefixTerms(store: IndexStore, spaceIds: string[], prefix: string): Promise<string[]> {
  const out = new Set(prefixStems(prefix));
  if (prefix.length >= MIN_PREFIX) {
    const rows = await store.vocabulary
      .aggregate<{ _id: string }>([
        { $match: { t: { $gte: prefix, $lt: `${prefix}\uffff` }, s: { $in: spaceIds }, n: { $gt: 0 } } },
        { $limit: MAX_PREFIX_SCAN },
        { $group: { _id: '$t', n: { $sum: '$n' } } },
        { $sort: { n: -1, _id: 1 } },
        { $limit: MAX_EXPANSIONS },
      ])
      .toArray();
    rows.forEach((r) => out.add(r._id));
  }
  return [...out].filter((t) => matchesPrefix(t, prefix));
}

/** Sections holding each term in the given spaces. */
async function documentFrequencies(store: IndexStore, spaceIds: string[], terms: string[]): Promise<Map<string, number>> {
  const rows = await store.vocabulary
    .aggregate<{ _id: string; n: number }>([{ $match: { t: { $in: terms }, s: { $in: spaceIds } } }, { $group: { _id: '$t', n: { $sum: '$n' } } }])
    .toArray();
  return new Map(rows.filter((r) => r.n > 0).map((r) => [r._id, r.n]));
}

/**
 * The `limit` sections of the given spaces where the term weighs most. Spaces go by
 * groups the database merges in impact order (one index range per space), so a query reads
 * about as many index keys as it keeps, whatever the size of the spaces.
 */
async function bestPostings(store: IndexStore, spaceIds: string[], term: string, weight: number, limit: number): Promise<TermPostings> {
  const groups: string[][] = [];
  for (let i = 0; i < spaceIds.length; i += SPACES_PER_MERGE) groups.push(spaceIds.slice(i, i + SPACES_PER_MERGE));
  const read = await Promise.all(
    groups.map((g) => store.postings.find({ t: term, s: { $in: g } }, { projection: { _id: 0, i: 1, c: 1 }, sort: { i: -1 }, limit, hint: 'impact' }).toArray()),
  );
  const rows = read
    .flat()
    .sort((a, b) => b.i - a.i)
    .slice(0, limit);
  const truncated = read.some((r) => r.length === limit);
  return { term, idf: weight, postings: new Map(rows.map((r) => [r.c, r.i])), truncated, floor: rows.length ? rows[rows.length - 1].i : 0 };
}

/**
 * The best candidates (by the score they could have) get their unread terms looked up, at most
 * MAX_LOOKUPS of them, so the top of the ranking is exact; the rest keep what was read.
 */
async function complete(store: IndexStore, groups: string[][], lists: TermPostings[], candidates: Candidate[]): Promise<Candidate[]> {
  const open: Candidate[] = [];
  let lookups = 0;
  for (const c of candidates) {
    if (lookups + c.unknown.length > MAX_LOOKUPS) break;
    if (!c.unknown.length) continue;
    open.push(c);
    lookups += c.unknown.length;
  }
  if (!open.length) return candidates.sort(byCandidate);
  const ids = open.flatMap((c) => c.unknown.map((t) => `${c.id}|${t}`));
  const found = new Map((await store.postings.find({ _id: { $in: ids } }, { projection: { i: 1 } }).toArray()).map((p) => [p._id, p.i]));
  const byTerm = new Map(lists.map((l) => [l.term, l]));
  for (const c of open) {
    c.score = scoreOf(groups, (t) => {
      const l = byTerm.get(t);
      return l ? l.idf * (l.postings.get(c.id) ?? found.get(`${c.id}|${t}`) ?? 0) : 0;
    });
    c.bound = c.score;
    c.unknown = [];
  }
  return candidates.sort(byCandidate);
}

const byCandidate = (a: Candidate, b: Candidate) => b.score - a.score || a.id.localeCompare(b.id);

/** The candidates holding every phrase as consecutive terms (of the title, or of the body). */
async function withPhrases(store: IndexStore, candidates: Candidate[], phrases: string[][]): Promise<Candidate[]> {
  const texts = await store.sections.find({ _id: { $in: candidates.map((c) => c.id) } }, { projection: { title: 1, body: 1 } }).toArray();
  const byId = new Map(texts.map((t) => [t._id, [...termsOf(t.title), '\u0000', ...termsOf(t.body)]]));
  return candidates.filter((c) => phrases.every((p) => holdsPhrase(byId.get(c.id) ?? [], p)));
}

const keyOf = (p: { spaceId: string; pageId: string }) => `${p.spaceId}:${p.pageId}`;
function byScore(a: RankedPage, b: RankedPage): number {
  return b.score - a.score || keyOf(a).localeCompare(keyOf(b));
}

/** One page of a ranked list: items after the cursor (score, key), at most `limit`. */
export function pageAfter<T>(items: T[], page: { page?: string; limit?: number } | undefined, scoreOf: (t: T) => number, idOf: (t: T) => string) {
  const cursor = decodeCursor(page?.page);
  const limit = resolveLimit(page?.limit);
  const start = cursor ? items.findIndex((t) => scoreOf(t) < Number(cursor.k) || (scoreOf(t) === Number(cursor.k) && idOf(t) > cursor.id)) : 0;
  const rest = start < 0 ? [] : items.slice(start);
  const visible = rest.slice(0, limit);
  const last = visible[visible.length - 1];
  return { visible, count: items.length, nextPage: rest.length > limit && last ? encodeCursor({ k: scoreOf(last), id: idOf(last) }) : undefined };
}

/** The pages' titles, paths and their best sections with highlighted excerpts. */
export async function pageResults(store: IndexStore, pages: RankedPage[], matches: (term: string, folded: string) => boolean): Promise<PageResultJson[]> {
  const ids = pages.flatMap((p) => p.sections.slice(0, SECTIONS_PER_PAGE).map((s) => s.id));
  const rows = await store.sections.find({ _id: { $in: ids } }, { projection: { tf: 0, ttf: 0, terms: 0 } }).toArray();
  const byId = new Map(rows.map((r) => [r._id, r]));
  return pages.flatMap((p) => {
    const sections = p.sections
      .slice(0, SECTIONS_PER_PAGE)
      .map((s) => byId.get(s.id))
      .filter((s): s is SectionRecord => !!s);
    if (!sections.length) return [];
    const first = sections[0];
    return [
      {
        id: p.pageId,
        title: first.pageTitle,
        path: first.pagePath,
        spaceId: p.spaceId,
        sections: sections.map((s) => ({
          id: s.n === 0 ? p.pageId : `${p.pageId}#${s.anchor}`,
          title: s.title,
          path: s.n === 0 ? s.pagePath : `${s.pagePath}#${s.anchor}`,
          anchor: s.anchor,
          body: excerpt(s.body || s.title, matches),
        })),
      },
    ];
  });
}

export { PAGES_PER_SPACE };
