import { invalid } from '@bindery/platform/errors';
import { decodeCursor, encodeCursor, resolveLimit } from '@bindery/shared/pagination';
import { Candidate, combinePostings, excerpt, holdsPhrase, parseQuery, stem, terms as termsOf } from '@bindery/search/domain';
import type { IndexStore } from '@bindery/search/data-access';
import type { searchV1 } from '@bindery/shared/contracts';
import { complete, documentFrequencies, prefixTerms, termLists } from './term-postings';

export const MAX_QUERY = 512;
/** Distinct words of a query ranked by. */
const MAX_TERMS = 32;
/** Candidates checked for a phrase, best first. */
const PHRASE_CHECKS = 1000;
const SECTIONS_PER_PAGE = 5;
const PAGES_PER_SPACE = 20;

export interface RankedPage {
  spaceId: string;
  pageId: string;
  score: number;
  sections: { id: string; score: number }[];
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
  // A long query ranks by its first MAX_TERMS words (each word read is a database query).
  const fixedTerms = parsed.terms.filter((t) => t !== prefixStem || parsed.phrases.some((p) => p.includes(t))).slice(0, MAX_TERMS);
  // Term groups: one per query word; the last word typed stands for the terms it is a prefix of.
  const groups: string[][] = fixedTerms.map((t) => [t]);
  if (parsed.prefix) groups.push(await prefixTerms(store, spaceIds, parsed.prefix));
  const allTerms = [...new Set(groups.flat())];
  const [df, sections] = await Promise.all([documentFrequencies(store, spaceIds, allTerms), store.sectionCount(spaceIds)]);
  const lists = await termLists(store, spaceIds, fixedTerms, allTerms, df, sections);
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

/** The candidates holding every phrase as consecutive terms (of the title, or of the body). */
async function withPhrases(store: IndexStore, candidates: Candidate[], phrases: string[][]): Promise<Candidate[]> {
  const texts = await store.sectionTexts(candidates.map((c) => c.id));
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
export async function pageResults(store: IndexStore, pages: RankedPage[], matches: (term: string, folded: string) => boolean): Promise<searchV1.SearchPageResult[]> {
  const ids = pages.flatMap((p) => p.sections.slice(0, SECTIONS_PER_PAGE).map((s) => s.id));
  const rows = await store.resultSections(ids);
  const byId = new Map(rows.map((r) => [r._id, r]));
  return pages.flatMap((p) => {
    const sections = p.sections
      .slice(0, SECTIONS_PER_PAGE)
      .map((s) => byId.get(s.id))
      .filter((s) => s !== undefined);
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
