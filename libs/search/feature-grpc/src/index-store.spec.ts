import { idf, impactsOf, scoreOf, terms } from '@bindery/search/domain';
import { startServiceUnderTest, ServiceUnderTest } from '@bindery/shared/testing';
import { IndexedPage, IndexStore, sectionRecords } from './index-store';
import { rankPages } from './search-query';
import { POSTINGS_PER_TERM } from './term-postings';
import { SearchDeps, searchService } from './search-server';

const page = (pageId: string, body: string, title = `Page ${pageId}`): IndexedPage => ({ pageId, title, path: pageId, sections: [{ n: 0, anchor: '', title, body }] });

describe('search index (real MongoDB)', () => {
  let service: ServiceUnderTest<SearchDeps>;
  let store: IndexStore;

  beforeAll(async () => {
    service = await startServiceUnderTest(searchService);
    store = service.running.deps.store;
  });
  afterAll(() => service?.stop());

  const vocabulary = async (spaceId: string) => Object.fromEntries((await store.vocabulary.find({ s: spaceId, n: { $ne: 0 } }).toArray()).map((v) => [v.t, v.n]));

  test('postings and document frequencies follow page replacements and removals', async () => {
    const space = { spaceId: 'sp1', organizationId: 'o1', revisionId: 'r1' };
    await store.replacePages(space, [], [page('a', 'alpha beta'), page('b', 'alpha')]);
    expect(await vocabulary('sp1')).toEqual({ alpha: 2, beta: 1, page: 2, a: 1, b: 1 });
    expect(await store.postings.countDocuments({ s: 'sp1' })).toBe(7);
    await store.replacePages({ ...space, revisionId: 'r2' }, [], [page('a', 'gamma')]);
    expect(await vocabulary('sp1')).toEqual({ alpha: 1, gamma: 1, page: 2, a: 1, b: 1 });
    await store.replacePages({ ...space, revisionId: 'r3' }, ['b'], []);
    expect(await vocabulary('sp1')).toEqual({ gamma: 1, page: 1, a: 1 });
    expect((await store.postings.find({ s: 'sp1' }).toArray()).map((p) => p.t).sort()).toEqual(['a', 'gamma', 'page']);
    expect(await store.spaces.findOne({ _id: 'sp1' })).toMatchObject({ sections: 1, revisionId: 'r3' });
    await store.removeSpace('sp1');
    expect(await store.postings.countDocuments({ s: 'sp1' })).toBe(0);
    expect(await vocabulary('sp1')).toEqual({});
    // A posting left without its section (a clear cut short) does not wedge the next write of its page.
    await store.postings.insertOne({ _id: 'sp1:a:0|gamma', t: 'gamma', s: 'sp1', i: 1, c: 'sp1:a:0' });
    await store.replacePages({ ...space, revisionId: 'r4' }, [], [page('a', 'gamma')]);
    expect((await store.postings.find({ s: 'sp1' }).toArray()).map((p) => p.t).sort()).toEqual(['a', 'gamma', 'page']);
  });

  test('concurrent replacements of different pages from two replicas keep the counts exact', async () => {
    const space = { spaceId: 'sp2', organizationId: 'o1', revisionId: 'r1' };
    // Writes queue per space within one process; a second store on the same database is another replica.
    const replica = new IndexStore(service.running.mongo.db);
    const storeOf = (i: number) => (i % 2 ? store : replica);
    await Promise.all(Array.from({ length: 20 }, (_, i) => storeOf(i).replacePages(space, [], [page(`p${i}`, `harbor word${i}`)])));
    expect((await vocabulary('sp2')).harbor).toBe(20);
    expect(await store.spaces.findOne({ _id: 'sp2' })).toMatchObject({ sections: 20 });
    await Promise.all(Array.from({ length: 20 }, (_, i) => storeOf(i).replacePages(space, [], [page(`p${i}`, i % 3 ? 'harbor' : 'quartz')])));
    expect(await vocabulary('sp2')).toMatchObject({ harbor: 13, quartz: 7 });
  });

  test('the best postings read per term rank the first results as reading every section would', async () => {
    // More sections hold each word than a query reads of it, and the best sections of each word hold
    // only that word: the sections holding both (which must come first) are found through the rarest
    // word's longer list and completed by looking their other word up.
    let seed = 7;
    const rand = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const filler = ['lorem', 'ipsum', 'dolor', 'sit', 'amet', 'consectetur', 'adipiscing', 'elit'];
    const fill = (n: number) => Array.from({ length: n }, () => filler[Math.floor(rand() * filler.length)]).join(' ');
    const bodies = [
      ...Array.from({ length: POSTINGS_PER_TERM + 100 }, () => `quartz quartz ${fill(Math.floor(rand() * 6))}`),
      ...Array.from({ length: POSTINGS_PER_TERM + 120 }, () => `harbor harbor ${fill(Math.floor(rand() * 6))}`),
      ...Array.from({ length: 100 }, () => `${fill(60 + Math.floor(rand() * 80))} quartz ${fill(40)} harbor`),
      ...Array.from({ length: 300 }, () => fill(50)),
    ];
    const pages = bodies.map((body, i) => page(`q${i}`, body, `Notes ${i}`));
    const n = pages.length;
    const spaces = ['big1', 'big2'];
    for (const [k, spaceId] of spaces.entries())
      await store.bulkLoad(
        { spaceId, organizationId: 'o2', revisionId: 'r' },
        pages.filter((_, i) => i % 2 === k),
      );

    const groups = terms('quartz harbor').map((t) => [t]);
    const records = spaces.flatMap((spaceId, k) => pages.filter((_, i) => i % 2 === k).flatMap((p) => sectionRecords({ spaceId, organizationId: 'o2', revisionId: 'r' }, p)));
    const df = (t: string) => records.filter((r) => r.terms.includes(t)).length;
    expect(df('quartz')).toBeGreaterThan(POSTINGS_PER_TERM);
    expect(df('harbor')).toBeGreaterThan(POSTINGS_PER_TERM);
    const weights = new Map(groups.flat().map((t) => [t, idf(df(t), n)]));
    const expected = records
      .map((r) => {
        const impacts = impactsOf(r);
        return { page: r.pageId, key: `${r.spaceId}:${r.pageId}`, score: scoreOf(groups, (t) => weights.get(t)! * (impacts.get(t) ?? 0)) };
      })
      .sort((a, b) => b.score - a.score || a.key.localeCompare(b.key))
      .slice(0, 120)
      .map((r) => r.page);
    const { pages: ranked } = await rankPages(store, spaces, 'quartz harbor ');
    expect(ranked.slice(0, 120).map((p) => p.pageId)).toEqual(expected);
  });

  test('a word cut only when the space groups are merged still counts as cut (organizations of more than 150 spaces)', async () => {
    // 160 spaces: the database merges 150 of them per query, then 10. Neither group fills the word's
    // list, but together they hold more than it: the sections dropped in the merge are unknown, not absent.
    let seed = 11;
    const rand = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const fill = (n: number) => Array.from({ length: n }, () => (rand() < 0.5 ? 'lorem' : 'ipsum')).join(' ');
    const g1 = Array.from({ length: 150 }, (_, i) => `m1s${i}`);
    const g2 = Array.from({ length: 10 }, (_, i) => `m2s${i}`);
    const bySpace = new Map<string, IndexedPage[]>();
    const add = (spaceId: string, p: IndexedPage) => bySpace.set(spaceId, [...(bySpace.get(spaceId) ?? []), p]);
    for (let i = 0; i < 600; i++) add(i < 350 ? g1[i % 150] : g2[i % 10], page(`mq${i}`, `quartz quartz ${fill(Math.floor(rand() * 6))}`));
    for (let i = 0; i < 100; i++) add(i < 50 ? g1[i] : g2[i % 10], page(`mb${i}`, `${fill(60 + Math.floor(rand() * 80))} quartz ${fill(40)} harbor`));
    for (let i = 0; i < 300; i++) add(g1[i % 150], page(`mh${i}`, `harbor harbor ${fill(Math.floor(rand() * 6))}`));
    for (const [spaceId, pages] of bySpace) await store.bulkLoad({ spaceId, organizationId: 'o3', revisionId: 'r' }, pages);
    const spaces = [...g1, ...g2];
    const records = [...bySpace].flatMap(([spaceId, pages]) => pages.flatMap((p) => sectionRecords({ spaceId, organizationId: 'o3', revisionId: 'r' }, p)));
    expect(records.filter((r) => r.terms.includes('quartz')).length).toBeGreaterThan(POSTINGS_PER_TERM);
    const groups = terms('quartz harbor').map((t) => [t]);
    const weights = new Map(groups.flat().map((t) => [t, idf(records.filter((r) => r.terms.includes(t)).length, records.length)]));
    const expected = records
      .map((r) => ({ key: `${r.spaceId}:${r.pageId}`, page: r.pageId, score: scoreOf(groups, (t) => weights.get(t)! * (impactsOf(r).get(t) ?? 0)) }))
      .sort((a, b) => b.score - a.score || a.key.localeCompare(b.key))
      .slice(0, 50)
      .map((r) => r.page);
    const { pages: ranked } = await rankPages(store, spaces, 'quartz harbor ');
    expect(ranked.slice(0, 50).map((p) => p.pageId)).toEqual(expected);
  });
});
