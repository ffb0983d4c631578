import { ApplyContext } from '@bindery/platform/events';
import { ClientSession, Db, oneAtATime, sessionOf, withTransaction } from '@bindery/platform/mongo';
import { COLLECTIONS, IndexedPage, postingRecords, PostingRecord, SectionRecord, sectionRecords, SpaceRecord, VocabularyRecord } from './records';

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

  private get sections() {
    return this.db.collection<SectionRecord>(COLLECTIONS.sections);
  }

  private get postings() {
    return this.db.collection<PostingRecord>(COLLECTIONS.postings);
  }

  private get vocabulary() {
    return this.db.collection<VocabularyRecord>(COLLECTIONS.vocabulary);
  }

  private get spaces() {
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

  /** Records a space content created (in the transaction of the event being applied). */
  async knownSpace(spaceId: string, organizationId: string, applying?: ApplyContext): Promise<void> {
    await this.spaces.updateOne({ _id: spaceId }, { $set: { organizationId }, $setOnInsert: { sections: 0 } }, { upsert: true, session: sessionOf(applying) });
  }

  /** How many of these spaces the index knows (has seen created). */
  countKnownSpaces(spaceIds: readonly string[]): Promise<number> {
    return this.spaces.countDocuments({ _id: { $in: [...spaceIds] } });
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

  /** What the index knows of a space; null when nothing. */
  indexedSpace(spaceId: string): Promise<SpaceRecord | null> {
    return this.spaces.findOne({ _id: spaceId });
  }

  /** The spaces among these the index knows. */
  indexedSpaces(spaceIds: string[]): Promise<SpaceRecord[]> {
    return this.spaces.find({ _id: { $in: spaceIds } }).toArray();
  }

  /** Every space id the index knows, one at a time. */
  async *allSpaceIds(): AsyncGenerator<string> {
    for await (const s of this.spaces.find({}, { projection: { _id: 1 } })) yield s._id;
  }

  /** Title and body of these sections (for phrase checks). */
  sectionTexts(ids: string[]): Promise<Pick<SectionRecord, '_id' | 'title' | 'body'>[]> {
    return this.sections.find({ _id: { $in: ids } }, { projection: { title: 1, body: 1 } }).toArray();
  }

  /** These sections as results show them (without their term statistics). */
  resultSections(ids: string[]): Promise<Omit<SectionRecord, 'tf' | 'ttf' | 'terms'>[]> {
    return this.sections.find({ _id: { $in: ids } }, { projection: { tf: 0, ttf: 0, terms: 0 } }).toArray();
  }

  /**
   * The terms starting with `prefix` held by the spaces, the most frequent first (at most
   * `expansions`; at most `scan` vocabulary entries read).
   */
  async termsStartingWith(spaceIds: string[], prefix: string, scan: number, expansions: number): Promise<string[]> {
    const rows = await this.vocabulary
      .aggregate<{ _id: string }>([
        { $match: { t: { $gte: prefix, $lt: `${prefix}\uffff` }, s: { $in: spaceIds }, n: { $gt: 0 } } },
        { $limit: scan },
        { $group: { _id: '$t', n: { $sum: '$n' } } },
        { $sort: { n: -1, _id: 1 } },
        { $limit: expansions },
      ])
      .toArray();
    return rows.map((r) => r._id);
  }

  /** Sections holding each term in the given spaces (terms none holds are left out). */
  async documentFrequencies(spaceIds: string[], terms: string[]): Promise<Map<string, number>> {
    const rows = await this.vocabulary
      .aggregate<{ _id: string; n: number }>([{ $match: { t: { $in: terms }, s: { $in: spaceIds } } }, { $group: { _id: '$t', n: { $sum: '$n' } } }])
      .toArray();
    return new Map(rows.filter((r) => r.n > 0).map((r) => [r._id, r.n]));
  }

  /**
   * The `limit` postings of the term with the highest impact in these spaces (one database query
   * over the `impact` index: MongoDB merges at most 200 index ranges in order).
   */
  bestPostings(spaceIds: string[], term: string, limit: number): Promise<Pick<PostingRecord, 'i' | 'c'>[]> {
    return this.postings.find({ t: term, s: { $in: spaceIds } }, { projection: { _id: 0, i: 1, c: 1 }, sort: { i: -1 }, limit, hint: 'impact' }).toArray();
  }

  /** The impacts of these postings (`<section>|<term>`) that exist. */
  async impacts(postingIds: string[]): Promise<Map<string, number>> {
    const rows = await this.postings.find({ _id: { $in: postingIds } }, { projection: { i: 1 } }).toArray();
    return new Map(rows.map((p) => [p._id, p.i]));
  }
}
