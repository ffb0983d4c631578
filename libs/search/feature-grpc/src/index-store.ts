import { ClientSession, Db, IndexPlan, oneAtATime, withTransaction } from '@bindery/platform/mongo';
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

/** An `_id` range: every id starting with `prefix`. */
function startingWith(prefix: string): { $regex: string } {
  return { $regex: `^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}` };
}

/** Per term, sections gained minus sections lost. */
function termCounts(added: { terms: string[] }[], removed: { terms: string[] }[]): Map<string, number> {
  const delta = new Map<string, number>();
  for (const s of added) for (const t of s.terms) delta.set(t, (delta.get(t) ?? 0) + 1);
  for (const s of removed) for (const t of s.terms) delta.set(t, (delta.get(t) ?? 0) - 1);
  return delta;
}

export class IndexStore {
  constructor(private readonly db: Db) {}

  get sections() {
    return this.db.collection<SectionRecord>(COLLECTIONS.sections);
  }

  get postings() {
    return this.db.collection<PostingRecord>(COLLECTIONS.postings);
  }

  get vocabulary() {
    return this.db.collection<VocabularyRecord>(COLLECTIONS.vocabulary);
  }

  get spaces() {
    return this.db.collection<SpaceRecord>(COLLECTIONS.spaces);
  }

  /**
   * Replaces what the index holds of these pages (absent from `pages`: only removed), with the
   * space's statistics, in one transaction. Writes of one space are queued in this process (they
   * all count the same terms); between replicas the transactions keep them apart.
   */
  async replacePages(space: { spaceId: string; organizationId: string; revisionId: string }, removed: string[], pages: IndexedPage[]): Promise<void> {
    const pageIds = [...new Set([...removed, ...pages.map((p) => p.pageId)])];
    const fresh = pages.flatMap((p) => sectionRecords(space, p));
    const postings = fresh.flatMap(postingRecords);
    await oneAtATime(`search-space:${space.spaceId}`, () =>
      withTransaction(this.db, async (session) => {
        const old = await this.sections.find({ spaceId: space.spaceId, pageId: { $in: pageIds } }, { session, projection: { terms: 1 } }).toArray();
        if (old.length) await this.sections.deleteMany({ spaceId: space.spaceId, pageId: { $in: pageIds } }, { session });
        // Even without sections: postings left behind are what a new section's insert would collide with.
        if (pageIds.length) await this.postings.deleteMany({ $or: pageIds.map((p) => ({ _id: startingWith(`${space.spaceId}:${p}:`) })) }, { session });
        if (fresh.length) await this.sections.insertMany(fresh, { session });
        if (postings.length) await this.postings.insertMany(postings, { session });
        await this.countTerms(space.spaceId, termCounts(fresh, old), session);
        await this.spaces.updateOne(
          { _id: space.spaceId },
          { $set: { organizationId: space.organizationId, revisionId: space.revisionId }, $inc: { sections: fresh.length - old.length } },
          { upsert: true, session },
        );
      }),
    );
  }

  /**
   * Adds pages to a space the index does not hold yet, without a transaction and in large
   * unordered batches: for seeding an index (benchmarks, a first load), not for live updates.
   */
  async bulkLoad(space: { spaceId: string; organizationId: string; revisionId: string }, pages: IndexedPage[]): Promise<void> {
    const fresh = pages.flatMap((p) => sectionRecords(space, p));
    const postings = fresh.flatMap(postingRecords);
    for (let i = 0; i < fresh.length; i += 5000) await this.sections.insertMany(fresh.slice(i, i + 5000), { ordered: false });
    for (let i = 0; i < postings.length; i += 20000) await this.postings.insertMany(postings.slice(i, i + 20000), { ordered: false });
    await this.countTerms(space.spaceId, termCounts(fresh, []));
    await this.spaces.updateOne(
      { _id: space.spaceId },
      { $set: { organizationId: space.organizationId, revisionId: space.revisionId }, $inc: { sections: fresh.length } },
      { upsert: true },
    );
  }

  private async countTerms(spaceId: string, delta: Map<string, number>, session?: ClientSession): Promise<void> {
    const ops = [...delta]
      .filter(([, n]) => n !== 0)
      .map(([t, n]) => ({ updateOne: { filter: { _id: `${spaceId}|${t}` }, update: { $inc: { n }, $setOnInsert: { t, s: spaceId } }, upsert: true } }));
    for (let i = 0; i < ops.length; i += 5000) await this.vocabulary.bulkWrite(ops.slice(i, i + 5000), { session, ordered: false });
  }

  async knownSpace(spaceId: string, organizationId: string, session?: ClientSession): Promise<void> {
    await this.spaces.updateOne({ _id: spaceId }, { $set: { organizationId }, $setOnInsert: { sections: 0 } }, { upsert: true, session });
  }

  async removeSpace(spaceId: string): Promise<void> {
    await oneAtATime(`search-space:${spaceId}`, async () => {
      await this.dropEntries(spaceId);
      await this.spaces.deleteOne({ _id: spaceId });
    });
  }

  async clearSpace(spaceId: string): Promise<void> {
    await oneAtATime(`search-space:${spaceId}`, async () => {
      await this.dropEntries(spaceId);
      await this.spaces.updateOne({ _id: spaceId }, { $set: { sections: 0 } });
    });
  }

  /**
   * Everything the index holds of a space's pages (ranges of `_id`; large spaces are not one
   * transaction, so page writes of the space queue behind it in this process).
   */
  private async dropEntries(spaceId: string): Promise<void> {
    await this.sections.deleteMany({ _id: startingWith(`${spaceId}:`) });
    await this.postings.deleteMany({ _id: startingWith(`${spaceId}:`) });
    await this.vocabulary.deleteMany({ _id: startingWith(`${spaceId}|`) });
  }

  async moveToOrganization(spaceIds: string[], organizationId: string): Promise<void> {
    if (!spaceIds.length) return;
    await this.sections.updateMany({ spaceId: { $in: spaceIds } }, { $set: { organizationId } });
    await this.spaces.updateMany({ _id: { $in: spaceIds } }, { $set: { organizationId } });
  }

  /** Sections of the given spaces (the corpus size for idf). */
  async sectionCount(spaceIds: string[]): Promise<number> {
    const rows = await this.spaces.find({ _id: { $in: spaceIds } }, { projection: { sections: 1 } }).toArray();
    return rows.reduce((a, r) => a + r.sections, 0);
  }
}
