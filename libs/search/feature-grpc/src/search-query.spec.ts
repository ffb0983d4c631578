import { idf, impactsOf, scoreOf, terms } from '@bindery/search/domain';
import { IndexedPage, IndexStore, sectionRecords } from '@bindery/search/data-access';
import { startServiceUnderTest, ServiceUnderTest } from '@bindery/shared/testing';
import { rankPages } from './search-query';
import { POSTINGS_PER_TERM } from './term-postings';
import { SearchDeps, searchService } from './search-server';

const page = (pageId: string, body: string, title = `Page ${pageId}`): IndexedPage => ({ pageId, title, path: pageId, sections: [{ n: 0, anchor: '', title, body }] });

describe('ranking from the best postings of each term (real MongoDB)', () => {
  let service: ServiceUnderTest<SearchDeps>;
  let store: IndexStore;

  beforeAll(async () => {
    service = await startServiceUnderTest(searchService);
    store = service.running.deps.store;
  });
  afterAll(() => service?.stop());

  // Longer than the tier: loads some 1,700 pages and ranks them exactly for comparison.
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
  }, 60_000);

  // Longer than the tier: loads 1,000 pages into 160 spaces and ranks them exactly for comparison.
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
  }, 60_000);
});
