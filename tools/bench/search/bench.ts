// Search speed as an organization grows: an organization search over 1,000 and over 100,000 pages,
// and content's GetSpace in the same run, both through gRPC against the real replica set (content
// and search in process). The pages are written straight into search's index (the shape the indexer
// writes, sectionRecords) across 10 spaces that exist in content, from a Zipf-distributed vocabulary.
// Then the index update delay: a change written through content until search finds its new word.
// Goals (issue): p50 of the search ≤ 10 × GetSpace p50; growth of p50 from the smallest size to the largest ≤ 3.
// Settings: BENCH_PAGES (1000,100000), BENCH_ROUNDS (200), BENCH_DELAY_ROUNDS (20).
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { connectContent } from '@bindery/content/client';
import { contentServiceWith } from '@bindery/content/feature-grpc';
import { IdentityEvents as I } from '@bindery/identity/client';
import { connectSearch } from '@bindery/search/client';
import { IndexStore, searchService, sectionRecords } from '@bindery/search/feature-grpc';
import { startServiceUnderTest } from '@bindery/shared/testing';

const SIZES = (process.env.BENCH_PAGES || '1000,100000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 200);
const DELAY_ROUNDS = Number(process.env.BENCH_DELAY_ROUNDS || 20);
const SPACES = 10;
const log = (msg: string) => console.log(`[bench:search] ${msg}`);

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

// A vocabulary of 5,000 made-up words; word i is drawn with probability ∝ 1/(i+1) (Zipf).
const SYLLABLES = ['ka', 'ro', 'mi', 'te', 'lu', 'sa', 'no', 'vi', 'de', 'pa', 'zu', 'fe', 'go', 'hi', 'ja', 'qu'];
const VOCABULARY = Array.from({ length: 5000 }, (_, i) => {
  let w = '';
  for (let n = i + 7; n > 0; n = Math.floor(n / SYLLABLES.length)) w += SYLLABLES[n % SYLLABLES.length];
  return `${w}n`;
});
const CUMULATIVE = (() => {
  const out: number[] = [];
  let sum = 0;
  VOCABULARY.forEach((_, i) => out.push((sum += 1 / (i + 1))));
  return out.map((c) => c / sum);
})();
function word(): string {
  const r = Math.random();
  let lo = 0;
  let hi = CUMULATIVE.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (CUMULATIVE[mid] < r) lo = mid + 1;
    else hi = mid;
  }
  return VOCABULARY[lo];
}
const sentence = (n: number) => Array.from({ length: n }, word).join(' ');

async function main() {
  const run = randomBytes(3).toString('hex');
  const user = { userId: `bench-${run}`, isInstanceAdmin: false };
  const shared = { KAFKA_NAMESPACE: `benchsearch${run}.`, LOG_LEVEL: 'error' };
  const content = await startServiceUnderTest(contentServiceWith(), { ...shared, CONTENT_PURGE_EVERY_MS: '86400000' });
  const search = await startServiceUnderTest(searchService, { ...shared, CONTENT_GRPC_URL: content.address });
  const contentClients = connectContent(content.address, 120000);
  const searchClients = connectSearch(search.address, 120000);
  const store = new IndexStore(search.running.mongo.db);
  const results: Array<{ pages: number; p50: number; p99: number; getSpaceP50: number; count: number }> = [];
  try {
    for (const size of SIZES) {
      const org = `org-${size}-${run}`;
      await content.running.deps.access.handlers[I.memberAdded.type](I.memberAdded.create('bench', user.userId, { organizationId: org, userId: user.userId, role: 'admin' }, org));
      const spaces: string[] = [];
      for (let s = 0; s < SPACES; s++) spaces.push((await contentClients.spaces.createSpace({ organizationId: org, title: `Space ${s}` }, { caller: user })).id);
      const t0 = performance.now();
      for (let start = 0; start < size; start += 2000) {
        const batch = [];
        for (let i = start; i < Math.min(size, start + 2000); i++) {
          const spaceId = spaces[i % SPACES];
          const sections = [
            { n: 0, anchor: '', title: '', body: sentence(40) },
            { n: 1, anchor: `part-${i}`, title: sentence(3), body: sentence(60) },
          ];
          batch.push(...sectionRecords({ spaceId, organizationId: org, revisionId: 'seed' }, { pageId: `p${i}`, title: sentence(4), path: `page-${i}`, sections }));
        }
        await store.sections.insertMany(batch, { ordered: false });
      }
      for (const spaceId of spaces) {
        const agg = await store.sections
          .aggregate<{ n: number; len: number }>([{ $match: { spaceId } }, { $group: { _id: null, n: { $sum: 1 }, len: { $sum: '$len' } } }])
          .toArray();
        await store.spaces.updateOne(
          { _id: spaceId },
          { $set: { organizationId: org, revisionId: 'seed', sections: agg[0]?.n ?? 0, totalLen: agg[0]?.len ?? 0 } },
          { upsert: true },
        );
      }
      log(`${size} pages seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      // Two words of middling frequency and a prefix of a third, as someone types them.
      const query = `${VOCABULARY[40]} ${VOCABULARY[300]} ${VOCABULARY[120].slice(0, 4)}`;
      const times: number[] = [];
      const getTimes: number[] = [];
      let count = 0;
      for (let r = 0; r < ROUNDS + 20; r++) {
        const a = performance.now();
        const reply = await searchClients.search.searchOrganization({ organizationId: org, query, page: { page: '', limit: 0 } }, { caller: user });
        const b = performance.now();
        await contentClients.spaces.getSpace({ spaceId: spaces[r % SPACES] }, { caller: user });
        const c = performance.now();
        count = reply.page?.count ?? 0;
        if (r >= 20) {
          times.push(b - a);
          getTimes.push(c - b);
        }
      }
      const row = { pages: size, p50: quantile(times, 0.5), p99: quantile(times, 0.99), getSpaceP50: quantile(getTimes, 0.5), count };
      results.push(row);
      log(`${size} pages: search p50 ${row.p50.toFixed(1)} ms, p99 ${row.p99.toFixed(1)} ms; GetSpace p50 ${row.getSpaceP50.toFixed(2)} ms; ${count} spaces matched`);
    }

    // Index update delay: one page changed through content (an event), until search finds its new word.
    const org = `org-delay-${run}`;
    await content.running.deps.access.handlers[I.memberAdded.type](I.memberAdded.create('bench', user.userId, { organizationId: org, userId: user.userId, role: 'admin' }, org));
    const space = (await contentClients.spaces.createSpace({ organizationId: org, title: 'Delay' }, { caller: user })).id;
    const apply = (changes: unknown[]) =>
      contentClients.revisions.applyChanges(
        { spaceId: space, changesJson: JSON.stringify(changes), updateCurrent: true, baseRevisionId: '', revisionType: '', mergedFrom: '' },
        { caller: user },
      );
    const page = JSON.parse((await apply([{ operation: 'insert_page', title: 'Target', document: { markdown: 'start' } }])).changesJson)[0].page.id as string;
    const delays: number[] = [];
    for (let r = 0; r < DELAY_ROUNDS; r++) {
      const marker = `marker${run}x${r}`;
      const a = performance.now();
      await apply([{ operation: 'update_page', page, document: { markdown: `The ${marker} is here.` } }]);
      for (;;) {
        const reply = await searchClients.search.searchSpace({ spaceId: space, query: marker, page: { page: '', limit: 0 } }, { caller: user });
        if ((reply.page?.count ?? 0) > 0) break;
        await new Promise((r2) => setTimeout(r2, 10));
      }
      delays.push(performance.now() - a);
    }
    const small = results[0];
    const large = results[results.length - 1];
    console.log('\npages     search p50 ms  search p99 ms  GetSpace p50 ms  p50 / GetSpace');
    for (const r of results)
      console.log(
        `${String(r.pages).padEnd(9)} ${r.p50.toFixed(1).padStart(13)}  ${r.p99.toFixed(1).padStart(13)}  ${r.getSpaceP50.toFixed(2).padStart(15)}  ${(r.p50 / r.getSpaceP50).toFixed(1).padStart(13)}×`,
      );
    console.log(`\ngrowth of the search p50, ${small.pages} → ${large.pages} pages: ${(large.p50 / small.p50).toFixed(2)}× (goal ≤ 3×)`);
    console.log(`index update delay after a write (${DELAY_ROUNDS} rounds): p50 ${quantile(delays, 0.5).toFixed(0)} ms, p99 ${quantile(delays, 0.99).toFixed(0)} ms`);
  } finally {
    contentClients.close();
    searchClients.close();
    await search.stop();
    await content.stop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
