import type { IndexPlan } from '@bindery/platform/mongo';
import { frequencies, impactsOf, PageSection } from '@bindery/search/domain';

export const COLLECTIONS = { sections: 'sections', postings: 'postings', vocabulary: 'vocabulary', spaces: 'spaces' } as const;

/**
 * The inverted index. `sections`: one document per section of a page of a space's current revision
 * (its text and term frequencies). `postings`: one per term of a section with its impact, read best
 * first per term and space (`impact`, covered: the query never fetches a posting document).
 * `vocabulary`: per space and term, how many sections hold it (document frequencies, and the terms
 * a typed prefix can stand for). `spaces`: per space, its number of sections and revision indexed.
 * Ids carry their space first (`<space>:<page>:<n>` for a section, `<section>|<term>` for a posting,
 * `<space>|<term>` for a vocabulary entry), so a space's or a page's entries are a range of `_id`.
 */
export const SEARCH_INDEXES: IndexPlan = {
  [COLLECTIONS.sections]: [{ key: { spaceId: 1, pageId: 1 }, name: 'space_page' }],
  [COLLECTIONS.postings]: [{ key: { t: 1, s: 1, i: -1, c: 1 }, name: 'impact' }],
  [COLLECTIONS.vocabulary]: [{ key: { t: 1, s: 1 }, name: 'term_space' }],
  [COLLECTIONS.spaces]: [{ key: { organizationId: 1 }, name: 'organization' }],
};

export interface SectionRecord {
  _id: string;
  spaceId: string;
  organizationId: string;
  revisionId: string;
  pageId: string;
  pageTitle: string;
  pagePath: string;
  n: number;
  anchor: string;
  title: string;
  body: string;
  terms: string[];
  tf: Record<string, number>;
  ttf: Record<string, number>;
  len: number;
}

/** A term of a section: term, space, impact, section. */
export interface PostingRecord {
  _id: string;
  t: string;
  s: string;
  i: number;
  c: string;
}

export interface VocabularyRecord {
  _id: string;
  t: string;
  s: string;
  /** sections of the space holding the term (0 once none does) */
  n: number;
}

export interface SpaceRecord {
  _id: string;
  organizationId: string;
  revisionId?: string;
  sections: number;
}

export interface IndexedPage {
  pageId: string;
  title: string;
  path: string;
  sections: PageSection[];
}

export function sectionRecords(space: { spaceId: string; organizationId: string; revisionId: string }, page: IndexedPage): SectionRecord[] {
  return page.sections.map((s) => {
    const tf = frequencies(s.body);
    const ttf = frequencies(s.n === 0 ? page.title : `${page.title} ${s.title}`);
    const len = Object.values(tf).reduce((a, b) => a + b, 0) + Object.values(ttf).reduce((a, b) => a + b, 0);
    return {
      _id: `${space.spaceId}:${page.pageId}:${s.n}`,
      ...space,
      pageId: page.pageId,
      pageTitle: page.title,
      pagePath: page.path,
      n: s.n,
      anchor: s.anchor,
      title: s.n === 0 ? page.title : s.title,
      body: s.body,
      terms: [...new Set([...Object.keys(tf), ...Object.keys(ttf)])],
      tf,
      ttf,
      len,
    };
  });
}

export function postingRecords(section: SectionRecord): PostingRecord[] {
  return [...impactsOf(section)].map(([t, i]) => ({ _id: `${section._id}|${t}`, t, s: section.spaceId, i, c: section._id }));
}
