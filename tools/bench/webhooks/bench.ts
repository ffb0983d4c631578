// Webhook deliveries end to end: a whole system (identity, content, change-requests, sites, git-sync
// and webhooks from dist/apps, with their own timings, the outbound guard opened to loopback) and a
// receiver on loopback in this process.
// (a) every event type, each event delivered once, signatures checked with the documented recipe;
// (b) the receiver down (503, then connection refused) for BENCH_OUTAGE_S while renames of several
//     spaces keep coming, then up: every delivery arrives, in order per space; the delay after recovery;
// (c) BENCH_BURST renames of BENCH_BURST_SPACES spaces at once: latency from the API's answer to the
//     receiver's arrival (p50/p95/p99), and deliveries per second.
import { performance } from 'node:perf_hooks';
import { connectMongo, Db } from '@bindery/platform/mongo';
import { envPrefix, gitbookRepository, startSystem, startTestGitServer, SystemUnderTest, TestGitServer } from '@bindery/shared/testing';
import { WEBHOOK_EVENT_TYPES } from '@bindery/webhooks/client';
import { aDayOfWork, api, Api, Json, newUser } from './events';
import { Arrival, Receiver, ReceiverState, signatureOk, startReceiver } from './receiver';

const OUTAGE_S = Number(process.env.BENCH_OUTAGE_S || 120);
const OUTAGE_SPACES = Number(process.env.BENCH_OUTAGE_SPACES || 6);
const OUTAGE_TICK_MS = Number(process.env.BENCH_OUTAGE_TICK_MS || 2000);
const OUTAGE_MODES = (process.env.BENCH_OUTAGE_MODES || 'unavailable,refused').split(',') as ReceiverState[];
const PARTS = process.env.BENCH_PARTS || 'a,b,c';
const SYSTEM_ENV: Record<string, string> = process.env.BENCH_RUNS_CONCURRENCY ? { RUNS_CONCURRENCY: process.env.BENCH_RUNS_CONCURRENCY } : {};
const BURST = Number(process.env.BENCH_BURST || 500);
const BURST_SPACES = Number(process.env.BENCH_BURST_SPACES || 10);
const log = (msg: string) => console.log(`[bench:webhooks] ${msg}`);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];

/** Polls `check` every 50 ms until it answers true; fails after `withinMs`, saying `what`. */
async function until(check: () => boolean | Promise<boolean>, withinMs: number, what: () => string): Promise<void> {
  for (const t0 = Date.now(); !(await check()); await sleep(50)) {
    if (Date.now() - t0 > withinMs) throw new Error(`after ${withinMs} ms: ${what()}`);
  }
}

/** The webhook's deliveries as the API lists them: every one delivered (none queued, pending or failed). */
async function allDelivered(a: Api, orgId: string, webhookId: string): Promise<boolean> {
  const page = await a('GET', `/v1/orgs/${orgId}/webhooks/${webhookId}/deliveries?limit=100`);
  return page.items.every((d: { status: string }) => d.status === 'delivered');
}

async function everyEventType(sut: SystemUnderTest, a: Api, orgId: string, rx: Receiver, gitUrl: string): Promise<void> {
  const hook = await a('POST', `/v1/orgs/${orgId}/webhooks`, { url: rx.url, events: [...WEBHOOK_EVENT_TYPES] }, [201]);
  const from = rx.arrivals.length;
  await aDayOfWork(sut, a, orgId, gitUrl);
  const mine = () => rx.arrivals.slice(from);
  const missing = () => WEBHOOK_EVENT_TYPES.filter((t) => !mine().some((d) => d.json.type === t));
  await until(
    async () => !missing().length && (await allDelivered(a, orgId, hook.id)),
    120_000,
    () => `missing ${missing().join(', ')}`,
  );
  await a('DELETE', `/v1/orgs/${orgId}/webhooks/${hook.id}`);
  const got = mine();
  const verified = got.filter((d) => signatureOk(hook.secret, d.signature, d.body)).length;
  const events = new Set(got.map((d) => d.json.id)).size;
  console.log(`\n(a) every event type to a loopback receiver`);
  console.log(`${'event type'.padEnd(26)}${'deliveries'.padStart(11)}${'events'.padStart(8)}`);
  for (const t of WEBHOOK_EVENT_TYPES) {
    const of = got.filter((d) => d.json.type === t);
    console.log(`${t.padEnd(26)}${String(of.length).padStart(11)}${String(new Set(of.map((d) => d.json.id)).size).padStart(8)}`);
  }
  console.log(
    `(a) ${WEBHOOK_EVENT_TYPES.length - missing().length} of ${WEBHOOK_EVENT_TYPES.length} event types delivered; ${got.length} deliveries of ${events} events (${got.length - events} duplicates); signatures verified ${verified}/${got.length}`,
  );
  if (missing().length || verified !== got.length || events !== got.length) throw new Error('(a) failed');
}

interface Rename {
  space: string;
  n: number;
  answeredAt: number;
}

/** The renames' deliveries, per space in arrival order; how many arrived out of their events' order. */
function deliveriesOf(rx: Receiver, from: number, spaces: string[]) {
  const bySpace = new Map<string, Arrival[]>(spaces.map((s) => [s, []]));
  for (const d of rx.arrivals.slice(from)) if (d.json.type === 'space.updated') bySpace.get(d.json.resource.id)?.push(d);
  let outOfOrder = 0;
  for (const list of bySpace.values()) for (let i = 1; i < list.length; i++) if (list[i].json.createdAt < list[i - 1].json.createdAt) outOfOrder++;
  const all = [...bySpace.values()].flat();
  return { bySpace, count: all.length, outOfOrder, duplicates: all.length - new Set(all.map((d) => d.json.id)).size };
}

let api503 = 0;

/**
 * Renames a space; answers when the API said so. A 503 (the request's deadline passed on a busy
 * machine) may or may not have renamed it: the title is read back and the rename sent again only if
 * it did not happen (a rename committed after that read would make one event more: the run says so).
 */
async function rename(a: Api, space: string, title: string): Promise<number> {
  for (;;) {
    try {
      await a('PATCH', `/v1/spaces/${space}`, { title });
      return performance.now();
    } catch (err) {
      if (!/: 503 /.test(String(err))) throw err;
      api503++;
      if ((await a('GET', `/v1/spaces/${space}`)).title === title) return performance.now();
    }
  }
}

/** The webhook's deliveries as the API lists them, every page. */
async function deliveriesListed(a: Api, orgId: string, webhookId: string): Promise<Json[]> {
  const all: Json[] = [];
  for (let page: string | undefined = '', n = 0; page !== undefined && n < 200; n++) {
    const body = await a('GET', `/v1/orgs/${orgId}/webhooks/${webhookId}/deliveries?limit=100${page ? `&page=${encodeURIComponent(page)}` : ''}`);
    all.push(...body.items);
    page = body.next?.page;
  }
  return all;
}

/** How long after now the last delivery waiting for a retry would be retried (its backoff), in seconds; read from webhooks' database. */
async function lastRetryDue(db: Db): Promise<number> {
  const [last] = await db
    .collection('deliveries')
    .find({ status: 'pending', nextAttemptAt: { $exists: true } })
    .sort({ nextAttemptAt: -1 })
    .limit(1)
    .toArray();
  return last ? (Date.parse(last['nextAttemptAt']) - Date.now()) / 1000 : 0;
}

/** Where a delivery's time goes (p50, ms): event → recorded by the consumer → first attempt → arrival. */
async function stages(a: Api, orgId: string, webhookId: string, arrivals: Arrival[]): Promise<string> {
  const byEvent = new Map((await deliveriesListed(a, orgId, webhookId)).map((d) => [d.event, d]));
  const recorded: number[] = [];
  const waited: number[] = [];
  const sent: number[] = [];
  for (const got of arrivals) {
    const d = byEvent.get(got.json.id);
    if (!d?.attempts?.length) continue;
    const [event, rec, attempt, done] = [Date.parse(got.json.createdAt), Date.parse(d.createdAt), Date.parse(d.attempts[0].at), Date.parse(d.deliveredAt)];
    recorded.push(rec - event);
    waited.push(attempt - rec);
    sent.push(done - attempt);
  }
  return `event → recorded ${pct(recorded, 50)} ms, recorded → sent ${pct(waited, 50)} ms, sent → delivered ${pct(sent, 50)} ms (p50)`;
}

async function outage(a: Api, db: Db, orgId: string, rx: Receiver, mode: ReceiverState): Promise<void> {
  const spaces: string[] = [];
  for (let i = 0; i < OUTAGE_SPACES; i++) spaces.push((await a('POST', `/v1/orgs/${orgId}/spaces`, { title: `Outage ${mode} ${i}` }, [201])).id);
  const from = rx.arrivals.length;
  const renames: Rename[] = [];
  const refusedBefore = rx.answered503();
  await rx.set(mode);
  const down = performance.now();
  // space i joins at i/N of the outage, so the spaces' retries are out of step, as a real day's are
  for (let tick = 0; performance.now() - down < OUTAGE_S * 1000; tick++) {
    const joined = Math.min(spaces.length, 1 + Math.floor(((performance.now() - down) / (OUTAGE_S * 1000)) * spaces.length));
    const space = spaces[tick % joined];
    const n = renames.filter((r) => r.space === space).length + 1;
    renames.push({ space, n, answeredAt: await rename(a, space, `Outage ${mode} ${space} #${n}`) });
    await sleep(OUTAGE_TICK_MS);
  }
  const backoffLeft = await lastRetryDue(db);
  await rx.set('up');
  const up = performance.now();
  await until(
    () => deliveriesOf(rx, from, spaces).count >= renames.length,
    20 * 60_000,
    () => `${deliveriesOf(rx, from, spaces).count} of ${renames.length} arrived`,
  );
  const got = deliveriesOf(rx, from, spaces);
  const delays = [...got.bySpace.values()].flat().map((d) => (d.at - up) / 1000);
  const label = mode === 'refused' ? 'connection refused' : '503';
  console.log(`\n(b) receiver down ${OUTAGE_S} s (${label}) while ${renames.length} renames of ${spaces.length} spaces happened, then up`);
  console.log(`(b) ${label}: delivered ${got.count} of ${renames.length}, out of order 0${got.outOfOrder ? ` NO: ${got.outOfOrder}` : ''}, duplicates ${got.duplicates}`);
  console.log(
    `(b) ${label}: after recovery, first delivery ${Math.min(...delays).toFixed(1)} s, last (max delay) ${Math.max(...delays).toFixed(1)} s; attempts refused while down ${mode === 'refused' ? 'n/a (no connection)' : rx.answered503() - refusedBefore}`,
  );
  console.log(`(b) ${label}: at recovery, the last retry waiting was due in ${backoffLeft.toFixed(1)} s (its backoff; a delivery's success brings the others forward)`);
  if (got.count !== renames.length || got.outOfOrder || got.duplicates) throw new Error(`(b) ${label} failed`);
}

async function burst(a: Api, orgId: string, webhookId: string, rx: Receiver): Promise<void> {
  const spaces: string[] = [];
  for (let i = 0; i < BURST_SPACES; i++) spaces.push((await a('POST', `/v1/orgs/${orgId}/spaces`, { title: `Burst ${i}` }, [201])).id);
  const per = Math.ceil(BURST / BURST_SPACES);
  const from = rx.arrivals.length;
  const answered = new Map<string, number[]>(spaces.map((s) => [s, []]));
  const t0 = performance.now();
  // one writer per space, each renaming its space as fast as the API answers: events of a space in order
  await Promise.all(
    spaces.map(async (space, i) => {
      for (let n = 1; n <= per && i * per + n <= BURST; n++) {
        answered.get(space)!.push(await rename(a, space, `Burst ${space} #${n}`));
      }
    }),
  );
  const apiDone = performance.now();
  const total = [...answered.values()].reduce((s, x) => s + x.length, 0);
  await until(
    () => deliveriesOf(rx, from, spaces).count >= total,
    10 * 60_000,
    () => `${deliveriesOf(rx, from, spaces).count} of ${total} arrived`,
  );
  const got = deliveriesOf(rx, from, spaces);
  // the k-th delivery about a space is its k-th rename's (in order per space: checked)
  const latencies = spaces.flatMap((s) => got.bySpace.get(s)!.map((d, k) => d.at - answered.get(s)![k]));
  const last = Math.max(...[...got.bySpace.values()].flat().map((d) => d.at));
  console.log(
    `\n(c) burst: ${total} renames of ${spaces.length} spaces (${((total / (apiDone - t0)) * 1000).toFixed(0)} req/s through the API, ${((apiDone - t0) / 1000).toFixed(1)} s; ${api503} answered 503 past their deadline, read back)`,
  );
  console.log(
    `(c) latency API answer → receiver: p50 ${pct(latencies, 50).toFixed(0)} ms, p95 ${pct(latencies, 95).toFixed(0)} ms, p99 ${pct(latencies, 99).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms`,
  );
  console.log(
    `(c) delivered ${got.count} of ${total} in ${((last - t0) / 1000).toFixed(1)} s: ${((got.count / (last - t0)) * 1000).toFixed(0)} deliveries/s; out of order ${got.outOfOrder}, duplicates ${got.duplicates}`,
  );
  console.log(`(c) where the time goes: ${await stages(a, orgId, webhookId, [...got.bySpace.values()].flat())}`);
  if (got.count !== total || got.outOfOrder || got.duplicates) throw new Error('(c) failed');
}

async function main(): Promise<void> {
  let git: TestGitServer | undefined;
  let sut: SystemUnderTest | undefined;
  let rx: Receiver | undefined;
  let mongo: Awaited<ReturnType<typeof connectMongo>> | undefined;
  try {
    git = await startTestGitServer();
    git.createRepository('book');
    git.commit('book', gitbookRepository(5).files, 'A small book');
    rx = await startReceiver();
    sut = await startSystem(
      { BINDERY_OUTBOUND_ALLOW_PRIVATE: 'true', ...SYSTEM_ENV },
      { services: ['identity', 'content', 'change-requests', 'sites', 'git-sync', 'webhooks'], appDefaults: true },
    );
    mongo = await connectMongo(sut.env.MONGODB_URL, sut.env[`${envPrefix('webhooks')}_DB`], 'bench');
    const owner = await newUser(sut, 'owner');
    const a = api(sut.baseUrl, owner.token);
    const orgId = (await a('POST', '/v1/orgs', { title: 'Webhooks bench' }, [201])).id as string;
    if (PARTS.includes('a')) {
      log('(a) every event type');
      await everyEventType(sut, a, orgId, rx, git.url('book'));
    }
    const hook = await a('POST', `/v1/orgs/${orgId}/webhooks`, { url: rx.url, events: ['space.updated'] }, [201]);
    for (const mode of PARTS.includes('b') ? OUTAGE_MODES : []) {
      log(`(b) receiver down (${mode}) for ${OUTAGE_S} s`);
      await outage(a, mongo.db, orgId, rx, mode);
    }
    if (PARTS.includes('c')) {
      log(`(c) a burst of ${BURST} renames`);
      await burst(a, orgId, hook.id, rx);
    }
    await a('DELETE', `/v1/orgs/${orgId}/webhooks/${hook.id}`);
  } finally {
    await mongo?.close();
    await sut?.stop();
    await rx?.close();
    await git?.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
