import { invalid } from '@bindery/platform/errors';
import { decodeCursor, encodeCursor, resolveLimit } from '@bindery/shared/pagination';
import { excerpt, holdsPhrase, matchesPrefix, parseQuery, prefixStems, scoreSection, stem, terms as termsOf } from '@bindery/search/domain';
import type { IndexStore, SectionRecord } from './index-store';

export const MAX_QUERY = 512;
/** Sections read to rank one query; past it, document frequencies are those of the sections read. */
export const MAX_CANDIDATES = 20000;
const SECTIONS_PER_PAGE = 5;
const PAGES_PER_SPACE = 20;

type Candidate = Pick<SectionRecord, '_id' | 'spaceId' | 'pageId' | 'n' | 'tf' | 'ttf' | 'len'>;

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
  const or: Record<string, unknown>[] = [];
  if (fixedTerms.length) or.push({ terms: { $in: fixedTerms } });
  if (parsed.prefix) or.push({ terms: { $in: prefixStems(parsed.prefix) } }, { terms: { $regex: prefixPattern(parsed.prefix) } });
  // Only the frequencies of the query's terms travel: the rest of each section's maps stays in the database.
  const exactTerms = [...fixedTerms, ...(parsed.prefix ? prefixStems(parsed.prefix) : [])];
  const prefixRegex = parsed.prefix ? prefixPattern(parsed.prefix) : undefined;
  const wanted = (field: string) => ({
    $arrayToObject: {
      $filter: {
        input: { $objectToArray: `$${field}` },
        cond: { $or: [{ $in: ['$$this.k', exactTerms] }, ...(prefixRegex ? [{ $regexMatch: { input: '$$this.k', regex: prefixRegex } }] : [])] },
      },
    },
  });
  const candidates = (await store.sections
    .aggregate([
      { $match: { spaceId: { $in: spaceIds }, $or: or } },
      { $limit: MAX_CANDIDATES },
      { $project: { spaceId: 1, pageId: 1, n: 1, len: 1, tf: wanted('tf'), ttf: wanted('ttf') } },
    ])
    .toArray()) as Candidate[];
  // Term groups: one per query word; the last word typed stands for every term it is a prefix of.
  const groups: string[][] = fixedTerms.map((t) => [t]);
  if (parsed.prefix) {
    const expanded = new Set<string>();
    for (const c of candidates) for (const t of [...Object.keys(c.tf), ...Object.keys(c.ttf)]) if (matchesPrefix(t, parsed.prefix)) expanded.add(t);
    groups.push([...expanded]);
  }
  const df: Record<string, number> = {};
  for (const c of candidates) for (const t of new Set([...Object.keys(c.tf), ...Object.keys(c.ttf)])) if (groups.some((g) => g.includes(t))) df[t] = (df[t] ?? 0) + 1;
  const stats = await store.stats(spaceIds);
  let scored = candidates
    .map((c) => ({ c, score: scoreSection(c, groups, { sections: Math.max(stats.sections, candidates.length), avgLen: stats.avgLen, df }) }))
    .filter((s) => s.score > 0);
  if (parsed.phrases.length) {
    const need = new Set(parsed.phrases.flat());
    scored = scored.filter((s) => [...need].every((t) => s.c.tf[t] || s.c.ttf[t]));
    const texts = await store.sections.find({ _id: { $in: scored.map((s) => s.c._id) } }, { projection: { title: 1, body: 1 } }).toArray();
    const byId = new Map(texts.map((t) => [t._id, [...termsOf(t.title), '\u0000', ...termsOf(t.body)]]));
    scored = scored.filter((s) => parsed.phrases.every((p) => holdsPhrase(byId.get(s.c._id) ?? [], p)));
  }
  const pages = new Map<string, RankedPage>();
  for (const { c, score } of scored) {
    const key = `${c.spaceId}:${c.pageId}`;
    const page = pages.get(key) ?? { spaceId: c.spaceId, pageId: c.pageId, score: 0, sections: [] };
    page.sections.push({ id: c._id, score });
    page.score = Math.max(page.score, score);
    pages.set(key, page);
  }
  const ranked = [...pages.values()];
  for (const p of ranked) {
    // Other matching sections of the page add a little: a page about the subject beats one passing mention.
    const rest = p.sections.reduce((a, s) => a + s.score, 0) - p.score;
    p.score = Math.round((p.score + 0.1 * rest) * 1e6) / 1e6;
    p.sections.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
  }
  ranked.sort(byScore);
  const termSet = new Set(groups.flat());
  return { pages: ranked, matches: (t) => termSet.has(t) };
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

/** The anchored pattern of the terms a prefix starts (its regular-expression characters escaped). */
function prefixPattern(prefix: string): string {
  return `^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
}
