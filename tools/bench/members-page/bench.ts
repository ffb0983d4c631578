// The members page: GET /v1/orgs/{id}/members?limit=50 in an organization of 50 members, through a
// whole private Bindery started with the test systems' launcher (fresh ports and databases). Reports
// req/s, the CPU per request of each Bindery process (mongod is shared with other work, so its share is
// given as the MongoDB operations per request instead, counted by the identity database's profiler).
// Goal: ≤ 2 ms CPU per request over Bindery's processes.
// Settings: BENCH_DURATION (s, 10), BENCH_WARMUP (s, 2), BENCH_CONNECTIONS (20), BENCH_MEMBERS (50),
// BENCH_PROFILE_REQUESTS (100: requests sent one by one while the profiler counts).
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { startSystem } from '@bindery/shared/testing';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { measure, settings } = require('../measure');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { cpuSince } = require('../cpu');

const MEMBERS = Number(process.env.BENCH_MEMBERS || 50);
const PROFILE_REQUESTS = Number(process.env.BENCH_PROFILE_REQUESTS || 100);
const GOAL_MS = 2;
const log = (msg: string) => console.log(`[bench:members-page] ${msg}`);

async function call(baseUrl: string, method: string, route: string, token: string, body?: unknown) {
  const res = await fetch(baseUrl + route, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

async function main() {
  // BENCH_NODE_OPTIONS: node flags for Bindery's processes (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
  const nodeOptions: Record<string, string> = process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {};
  const sut = await startSystem({ LOG_LEVEL: 'warn', AUTH_CACHE_TTL_MS: '5000', ...nodeOptions });
  const mongo = new MongoClient(sut.env.MONGODB_URL);
  try {
    const { baseUrl, adminToken } = sut;
    const user = await call(baseUrl, 'POST', '/admin/users', adminToken, { email: `bench-${randomBytes(3).toString('hex')}@example.com`, displayName: 'Bench' });
    const { token } = await call(baseUrl, 'POST', `/admin/users/${user.id}/tokens`, adminToken, {});
    const org = await call(baseUrl, 'POST', '/v1/orgs', token, { title: 'Bench org' });
    // The other members straight into identity's database, in the shapes its repositories write.
    const db = mongo.db(sut.env.IDENTITY_DB);
    const users = [];
    const members = [];
    for (let i = 0; i < MEMBERS - 1; i += 1) {
      const at = new Date(Date.parse('2020-01-01T00:00:00.000Z') + i * 1000).toISOString();
      const u = { _id: randomBytes(15).toString('base64url'), email: `member${i}@bench.example.com`, displayName: `Member ${i}`, isInstanceAdmin: false, createdAt: at };
      users.push({ ...u, outbox: {}, outboxCount: 0 });
      members.push({
        _id: `${org.id}:${u._id}`,
        organizationId: org.id,
        userId: u._id,
        role: i % 10 === 0 ? 'edit' : 'read',
        joinedAt: at,
        sso: false,
        disabled: false,
        searchText: `${u.displayName} ${u.email}`.toLowerCase(),
        outbox: {},
        outboxCount: 0,
      });
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    await db.collection<any>('users').insertMany(users);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    await db.collection<any>('members').insertMany(members);
    const route = `/v1/orgs/${org.id}/members?limit=50`;
    const first = await call(baseUrl, 'GET', route, token);
    if (first.items.length !== Math.min(50, MEMBERS)) throw new Error(`the page has ${first.items.length} members`);

    // MongoDB operations per request, by database, collection and operation.
    // (each service's database; the profile collection made large enough to keep the whole run)
    const dbs = Object.entries(sut.env)
      .filter(([k]) => k.endsWith('_DB'))
      .map(([, name]) => mongo.db(name));
    for (const d of dbs) {
      await d.command({ profile: 0 });
      await d
        .collection('system.profile')
        .drop()
        .catch(() => undefined);
      await d.createCollection('system.profile', { capped: true, size: 64 * 1024 * 1024 });
      await d.command({ profile: 2 });
    }
    const since = new Date();
    for (let i = 0; i < PROFILE_REQUESTS; i += 1) await call(baseUrl, 'GET', route, token);
    for (const d of dbs) await d.command({ profile: 0 });
    const ops = new Map<string, number>();
    for (const d of dbs) {
      const rows = await d
        .collection('system.profile')
        .find({ ts: { $gte: since } })
        .toArray();
      for (const r of rows) {
        if (String(r.ns).endsWith('.system.profile')) continue;
        const key = `${r.ns} ${r.op}${r.command ? ` ${Object.keys(r.command)[0]}` : ''}`;
        ops.set(key, (ops.get(key) ?? 0) + 1);
      }
      await d
        .collection('system.profile')
        .drop()
        .catch(() => undefined);
    }
    console.log('\nMongoDB operations per request');
    for (const [key, n] of [...ops].sort()) console.log(`  ${(n / PROFILE_REQUESTS).toFixed(2).padStart(6)}  ${key}`);

    const pids = Object.fromEntries(Object.entries(sut.apps).map(([name, app]) => [name, app.child.pid!]));
    // What each process spends when no request comes (polling, heartbeats) is taken off its share.
    const opts = settings();
    const idleSince = cpuSince(pids);
    await new Promise((resolve) => setTimeout(resolve, opts.duration * 1000));
    const idle = idleSince().perProcess as Record<string, number>;
    const r = await measure({ url: baseUrl + route, headers: { authorization: `Bearer ${token}` }, pids }, opts);
    const perRequest = Object.fromEntries(
      Object.entries(r.cpuMsPerRequest as Record<string, number>)
        .filter(([name]) => name !== 'autocannon')
        .map(([name, ms]) => [name, Math.max(0, ms - (idle[name] ?? 0) / Math.max(1, r.requestsTotal))]),
    );
    const total = Object.values(perRequest).reduce((a, ms) => a + ms, 0);
    console.log(
      `\n${route.replace(org.id, '{id}')}: ${r.requestsPerSec.toFixed(0)} req/s, p50 ${r.latencyP50Ms} ms, non-2xx ${r.non2xx}, other load ${(r.otherCpuShare * 100).toFixed(0)} %`,
    );
    for (const [name, ms] of Object.entries(perRequest))
      console.log(`  ${name.padEnd(16)} ${ms.toFixed(3)} ms CPU per request (idle CPU taken off: ${(idle[name] ?? 0).toFixed(0)} ms)`);
    console.log(`CPU per request over Bindery's processes: ${total.toFixed(2)} ms (goal ≤ ${GOAL_MS}) ${total <= GOAL_MS ? 'met' : 'MISSED'}`);
  } finally {
    await mongo.close();
    await sut.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
