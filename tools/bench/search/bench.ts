// Search speed as an organization grows, through HTTP against a whole Bindery (every service and the
// gateway from dist/apps, the local replica set and broker): GET /v1/orgs/{orgId}/search over 1,000
// and over 100,000 pages, and GET /v1/spaces/{spaceId} in the same run. The pages are loaded straight
// into search's index (IndexStore.bulkLoad: the records the indexer writes) across 10 spaces that
// exist in content, from a Zipf-distributed vocabulary. Then the index update delay: a change request
// edited and merged through HTTP, until the space search finds its new word.
// Goals (issue): search p50 ≤ 10 × the GET p50; growth of the search p50 from the smallest size to the
// largest ≤ 3. Settings: BENCH_PAGES (1000,100000), BENCH_ROUNDS (200), BENCH_DELAY_ROUNDS (20).
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { connectMongo } from '@bindery/platform/mongo';
import { IndexStore } from '@bindery/search/data-access';
import { startSystem, SystemUnderTest } from '@bindery/shared/testing';
import { quantile, sentence, VOCABULARY } from './corpus';

const SIZES = (process.env.BENCH_PAGES || '1000,100000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 200);
const DELAY_ROUNDS = Number(process.env.BENCH_DELAY_ROUNDS || 20);
const SPACES = 10;
const PAGES_PER_LOAD = 1000;
const log = (msg: string) => console.log(`[bench:search] ${msg}`);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

function client(baseUrl: string, token: string) {
  return async (method: string, path: string, body?: unknown, expected = [200, 201]): Promise<Json> => {
    const res = await fetch(baseUrl + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!expected.includes(res.status)) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** An organization of the user with `n` spaces, once content and search know them. */
async function organization(call: ReturnType<typeof client>, store: IndexStore, title: string, n: number): Promise<{ orgId: string; spaces: string[] }> {
  const orgId = (await call('POST', '/v1/orgs', { title })).id as string;
  const spaces: string[] = [];
  for (let s = 0; s < n; s++) spaces.push((await until('content to know the member', () => call('POST', `/v1/orgs/${orgId}/spaces`, { title: `Space ${s}` }))).id);
  // Search has recorded every space (content.space.created) before its pages are loaded.
  await until('search to know the spaces', async () => ((await store.countKnownSpaces(spaces)) === n ? true : undefined));
  return { orgId, spaces };
}

async function load(store: IndexStore, orgId: string, spaces: string[], size: number): Promise<void> {
  for (const [k, spaceId] of spaces.entries()) {
    const ids = Array.from({ length: size }, (_, i) => i).filter((i) => i % spaces.length === k);
    for (let start = 0; start < ids.length; start += PAGES_PER_LOAD) {
      const pages = ids.slice(start, start + PAGES_PER_LOAD).map((i) => ({
        pageId: `p${i}`,
        title: sentence(4),
        path: `page-${i}`,
        sections: [
          { n: 0, anchor: '', title: '', body: sentence(40) },
          { n: 1, anchor: `part-${i}`, title: sentence(3), body: sentence(60) },
        ],
      }));
      await store.bulkLoad({ spaceId, organizationId: orgId, revisionId: 'seed' }, pages);
    }
  }
}

async function measure(call: ReturnType<typeof client>, orgId: string, spaces: string[], query: string) {
  const times: number[] = [];
  const getTimes: number[] = [];
  let count = 0;
  for (let r = 0; r < ROUNDS + 20; r++) {
    const a = performance.now();
    const reply = await call('GET', `/v1/orgs/${orgId}/search?query=${encodeURIComponent(query)}`);
    const b = performance.now();
    await call('GET', `/v1/spaces/${spaces[r % spaces.length]}`);
    const c = performance.now();
    count = reply.count;
    if (r >= 20) {
      times.push(b - a);
      getTimes.push(c - b);
    }
  }
  return { p50: quantile(times, 0.5), p99: quantile(times, 0.99), getP50: quantile(getTimes, 0.5), count };
}

/** Rounds of: a change request replacing a page's text with a new word, merged; the time until the space search finds the word. */
async function mergeDelays(call: ReturnType<typeof client>, store: IndexStore, run: string): Promise<number[]> {
  const { spaces } = await organization(call, store, 'Delay', 1);
  const space = spaces[0];
  const first = await call('POST', `/v1/spaces/${space}/change-requests`, { subject: 'First page' });
  const edit = (cr: string, changes: unknown[]) => call('POST', `/v1/spaces/${space}/change-requests/${cr}/content?compat=false`, { changes });
  const inserted = await edit(first.id, [{ operation: 'insert_page', title: 'Target', document: { markdown: 'start' } }]);
  await call('POST', `/v1/spaces/${space}/change-requests/${first.id}/merge`);
  const page = inserted.changes[0].page.id as string;
  const delays: number[] = [];
  for (let r = 0; r < DELAY_ROUNDS; r++) {
    const marker = `marker${run}x${r}`;
    const cr = await call('POST', `/v1/spaces/${space}/change-requests`, { subject: `Round ${r}` });
    await edit(cr.id, [{ operation: 'update_page', page, document: { markdown: `The ${marker} is here.` } }]);
    const a = performance.now();
    await call('POST', `/v1/spaces/${space}/change-requests/${cr.id}/merge`);
    for (;;) {
      const reply = await call('GET', `/v1/spaces/${space}/search?query=${marker}`);
      if (reply.count > 0) break;
      await new Promise((r2) => setTimeout(r2, 5));
    }
    delays.push(performance.now() - a);
  }
  return delays;
}

async function main() {
  const run = randomBytes(3).toString('hex');
  log('starting every service and the gateway');
  const sut: SystemUnderTest = await startSystem({ LOG_LEVEL: 'error' });
  const mongo = await connectMongo(sut.env.MONGODB_URL, sut.env.SEARCH_DB, 'bench');
  try {
    const admin = client(sut.baseUrl, sut.adminToken);
    const user = await admin('POST', '/admin/users', { email: `bench-${run}@example.com`, displayName: 'Bench' });
    const { token } = await admin('POST', `/admin/users/${user.id}/tokens`, {});
    const call = client(sut.baseUrl, token);
    const store = new IndexStore(mongo.db);
    const results: Array<{ pages: number; p50: number; p99: number; getP50: number; count: number }> = [];
    for (const size of SIZES) {
      const { orgId, spaces } = await organization(call, store, `Org ${size}`, SPACES);
      const t0 = performance.now();
      await load(store, orgId, spaces, size);
      log(`${size} pages loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      // Two words of middling frequency and the start of a third, as someone types them.
      const query = `${VOCABULARY[40]} ${VOCABULARY[300]} ${VOCABULARY[120].slice(0, 4)}`;
      const row = { pages: size, ...(await measure(call, orgId, spaces, query)) };
      results.push(row);
      log(`${size} pages: search p50 ${row.p50.toFixed(1)} ms, p99 ${row.p99.toFixed(1)} ms; GET space p50 ${row.getP50.toFixed(2)} ms; ${row.count} spaces matched`);
    }
    const delays = await mergeDelays(call, store, run);

    const small = results[0];
    const large = results[results.length - 1];
    console.log('\nthrough HTTP   search p50 ms  search p99 ms  GET space p50 ms  p50 / GET');
    for (const r of results)
      console.log(
        `${`${r.pages} pages`.padEnd(13)} ${r.p50.toFixed(1).padStart(13)}  ${r.p99.toFixed(1).padStart(13)}  ${r.getP50.toFixed(2).padStart(16)}  ${(r.p50 / r.getP50).toFixed(1).padStart(8)}× (goal ≤ 10×)`,
      );
    console.log(`\ngrowth of the search p50, ${small.pages} → ${large.pages} pages: ${(large.p50 / small.p50).toFixed(2)}× (goal ≤ 3×)`);
    console.log(`index update delay after a merge (${DELAY_ROUNDS} rounds): p50 ${quantile(delays, 0.5).toFixed(0)} ms, p99 ${quantile(delays, 0.99).toFixed(0)} ms`);
  } finally {
    await mongo.close();
    await sut.stop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
