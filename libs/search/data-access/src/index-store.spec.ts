import { randomBytes } from 'node:crypto';
import { connectMongo, ensureIndexes, MongoHandle } from '@bindery/platform/mongo';
import { IndexStore } from './index-store';
import { COLLECTIONS, IndexedPage, PostingRecord, SEARCH_INDEXES, VocabularyRecord } from './records';

const page = (pageId: string, body: string, title = `Page ${pageId}`): IndexedPage => ({ pageId, title, path: pageId, sections: [{ n: 0, anchor: '', title, body }] });

describe('search index store (real MongoDB)', () => {
  let mongo: MongoHandle;
  let store: IndexStore;

  beforeAll(async () => {
    mongo = await connectMongo(process.env.BINDERY_TEST_MONGODB_URL!, `search_store_${randomBytes(4).toString('hex')}`, 'tests');
    await ensureIndexes(mongo.db, SEARCH_INDEXES);
    store = new IndexStore(mongo.db);
  });
  afterAll(async () => {
    await mongo?.db.dropDatabase();
    await mongo?.close();
  });

  const postings = () => mongo.db.collection<PostingRecord>(COLLECTIONS.postings);
  const vocabulary = async (spaceId: string) =>
    Object.fromEntries(
      (
        await mongo.db
          .collection<VocabularyRecord>(COLLECTIONS.vocabulary)
          .find({ s: spaceId, n: { $ne: 0 } })
          .toArray()
      ).map((v) => [v.t, v.n]),
    );

  test('postings and document frequencies follow page replacements and removals', async () => {
    const space = { spaceId: 'sp1', organizationId: 'o1', revisionId: 'r1' };
    await store.replacePages(space, [], [page('a', 'alpha beta'), page('b', 'alpha')]);
    expect(await vocabulary('sp1')).toEqual({ alpha: 2, beta: 1, page: 2, a: 1, b: 1 });
    expect(await postings().countDocuments({ s: 'sp1' })).toBe(7);
    await store.replacePages({ ...space, revisionId: 'r2' }, [], [page('a', 'gamma')]);
    expect(await vocabulary('sp1')).toEqual({ alpha: 1, gamma: 1, page: 2, a: 1, b: 1 });
    await store.replacePages({ ...space, revisionId: 'r3' }, ['b'], []);
    expect(await vocabulary('sp1')).toEqual({ gamma: 1, page: 1, a: 1 });
    expect((await postings().find({ s: 'sp1' }).toArray()).map((p) => p.t).sort()).toEqual(['a', 'gamma', 'page']);
    expect(await store.indexedSpace('sp1')).toMatchObject({ sections: 1, revisionId: 'r3' });
    await store.removeSpace('sp1');
    expect(await postings().countDocuments({ s: 'sp1' })).toBe(0);
    expect(await vocabulary('sp1')).toEqual({});
    // A posting left without its section (a clear cut short) does not wedge the next write of its page.
    await postings().insertOne({ _id: 'sp1:a:0|gamma', t: 'gamma', s: 'sp1', i: 1, c: 'sp1:a:0' });
    await store.replacePages({ ...space, revisionId: 'r4' }, [], [page('a', 'gamma')]);
    expect((await postings().find({ s: 'sp1' }).toArray()).map((p) => p.t).sort()).toEqual(['a', 'gamma', 'page']);
  });

  test('concurrent replacements of different pages from two replicas keep the counts exact', async () => {
    const space = { spaceId: 'sp2', organizationId: 'o1', revisionId: 'r1' };
    // Writes queue per space within one process; a second store on the same database is another replica.
    const replica = new IndexStore(mongo.db);
    const storeOf = (i: number) => (i % 2 ? store : replica);
    await Promise.all(Array.from({ length: 20 }, (_, i) => storeOf(i).replacePages(space, [], [page(`p${i}`, `harbor word${i}`)])));
    expect((await vocabulary('sp2')).harbor).toBe(20);
    expect(await store.indexedSpace('sp2')).toMatchObject({ sections: 20 });
    await Promise.all(Array.from({ length: 20 }, (_, i) => storeOf(i).replacePages(space, [], [page(`p${i}`, i % 3 ? 'harbor' : 'quartz')])));
    expect(await vocabulary('sp2')).toMatchObject({ harbor: 13, quartz: 7 });
  });
});
