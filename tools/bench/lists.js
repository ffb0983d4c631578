#!/usr/bin/env node
'use strict';
// `npm run bench:lists`: does a list endpoint stay flat as the data grows? One private Bindery, two
// organizations seeded with 1,000 and 100,000 members, and GET /v1/orgs/{id}/members measured with
// autocannon on each: the first page, and a page in the middle of the list (reached by following
// `next.page`). Every measured response must carry the organization's whole `count`.
// Goal: p50 at the largest size ≤ 1.3 × p50 at the smallest, for both pages.
// Settings (environment): BENCH_DURATION (s, 10), BENCH_WARMUP (s, 2), BENCH_CONNECTIONS (20),
// BENCH_LIST_SIZES (1000,100000: seeded members per organization, the bench user comes on top),
// BENCH_PAGE_LIMIT (50), BENCH_ROUNDS (1: more rounds alternate the order of the sizes and report
// the median), BENCH_LOG_LEVEL (warn), BENCH_TELEMETRY (1), BENCH_OUTPUT (lists.json), BENCH_SMOKE
// (1: a second per list, small organizations; smoke.js). Bindery is started by the end-to-end
// tests' launcher (bindery.js): every service and the gateway.
const fs = require('node:fs');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const { MongoClient } = require('mongodb');
const { startBindery } = require('./bindery');
const { measure, settings } = require('./measure');
const report = require('./report');
const { applySmoke } = require('./smoke');

const log = (msg) => console.log(`[bench:lists] ${msg}`);
const cleanup = []; // undo steps, run last-in first-out
let cleaning;
function runCleanup() {
  cleaning ??= (async () => {
    while (cleanup.length) {
      try {
        await cleanup.pop()();
      } catch (err) {
        console.error(`[bench:lists] cleanup: ${err.message}`);
      }
    }
  })();
  return cleaning;
}

const GOAL = 1.3;
const SEED_BATCH = 5000;
const WALK_LIMIT = 1000; // the API's largest page: reaching the middle of 100,000 takes 50 requests
const GOAL_KINDS = ['first', 'deep'];

function listSettings(env = process.env) {
  const sizes = (env.BENCH_LIST_SIZES || '1000,100000').split(',').map((s) => Number(s.trim()));
  if (sizes.length < 2 || sizes.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('BENCH_LIST_SIZES must list at least two positive integers');
  const limit = Number(env.BENCH_PAGE_LIMIT || 50);
  const rounds = Number(env.BENCH_ROUNDS || 1);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new Error('BENCH_PAGE_LIMIT must be an integer from 1 to 1000');
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error('BENCH_ROUNDS must be a positive integer');
  return { sizes: [...sizes].sort((a, b) => a - b), limit, rounds };
}

async function api(b, method, route, body) {
  const res = await fetch(b.baseUrl + route, {
    method,
    headers: { authorization: `Bearer ${b.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text.slice(0, 300)}`);
  return { json: JSON.parse(text), bytes: Buffer.byteLength(text) };
}

/**
 * `size` users and their memberships, written straight into identity's database in the shapes its
 * repositories write (UserRecord; newMembership), as they are once the outbox relay has sent their
 * events. Joined one second apart, long before the bench user created the organization, so the
 * default order (joinedAt desc) is: the bench user, then member size-1, size-2, … 0.
 * Resolves with the user ids by seeded index.
 */
async function seed(db, organizationId, size) {
  const tag = randomBytes(3).toString('hex');
  const base = Date.parse('2020-01-01T00:00:00.000Z');
  const userIds = new Array(size);
  for (let start = 0; start < size; start += SEED_BATCH) {
    const users = [];
    const members = [];
    for (let i = start; i < Math.min(size, start + SEED_BATCH); i++) {
      const at = new Date(base + i * 1000).toISOString();
      const user = { _id: randomBytes(15).toString('base64url'), email: `member${i}.${tag}@bench.example.com`, displayName: `Member ${i}`, isInstanceAdmin: false, createdAt: at };
      userIds[i] = user._id;
      users.push({ ...user, outbox: {}, outboxCount: 0 });
      members.push({
        _id: `${organizationId}:${user._id}`,
        organizationId,
        userId: user._id,
        role: i % 10 === 0 ? 'edit' : 'read',
        joinedAt: at,
        sso: false,
        disabled: false,
        searchText: `${user.displayName} ${user.email}`.toLowerCase(),
        outbox: {},
        outboxCount: 0,
      });
    }
    await db.collection('users').insertMany(users, { ordered: false });
    await db.collection('members').insertMany(members, { ordered: false });
  }
  return userIds;
}

const membersRoute = (organizationId, limit, page) => `/v1/orgs/${organizationId}/members?limit=${limit}${page ? `&page=${encodeURIComponent(page)}` : ''}`;

/** Follows `next.page` until `offset` members have been served; the cursor of the page starting there. */
async function cursorAt(b, organizationId, offset) {
  let page;
  let served = 0;
  while (served < offset) {
    const { json } = await api(b, 'GET', membersRoute(organizationId, Math.min(WALK_LIMIT, offset - served), page));
    if (!json.next?.page || !json.items.length) throw new Error(`the list of ${organizationId} ended after ${served + json.items.length} members`);
    served += json.items.length;
    page = json.next.page;
  }
  return page;
}

/** A measured request must answer 200 with the page asked for and the organization's whole count. */
async function verify(b, target) {
  const { json, bytes } = await api(b, 'GET', target.route);
  if (json.count !== target.count) throw new Error(`${target.label}: count ${json.count}, expected ${target.count}`);
  if (json.items.length !== target.limit) throw new Error(`${target.label}: ${json.items.length} items, expected ${target.limit}`);
  if (target.firstId && json.items[0].id !== target.firstId) throw new Error(`${target.label}: page starts with ${json.items[0].id}, expected ${target.firstId}`);
  return bytes;
}

/** measure.js's measurement, with a check of `count` in every response (a wrong one is a mismatch). */
async function measureList(target, pids, config) {
  const needle = `"count":${target.count}`;
  const verifyBody = (body) => body.includes(`${needle},`) || body.includes(`${needle}}`);
  const { mismatches, ...figures } = await measure({ url: target.url, headers: target.headers, pids, verifyBody }, config);
  return { ...figures, countMismatches: mismatches };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** One row per target; with several rounds, the median of each figure (and every round kept). */
function summarize(target, rounds) {
  const pick = (key) => median(rounds.map((r) => r[key]));
  const sum = (key) => rounds.reduce((a, r) => a + r[key], 0);
  return {
    id: target.id,
    label: target.label,
    kind: target.kind,
    size: target.size,
    count: target.count,
    bodyBytes: target.bodyBytes,
    requestsPerSec: pick('requestsPerSec'),
    latencyP50Ms: pick('latencyP50Ms'),
    latencyP99Ms: pick('latencyP99Ms'),
    latencyMeanMs: pick('latencyMeanMs'),
    non2xx: sum('non2xx'),
    errors: sum('errors'),
    timeouts: sum('timeouts'),
    countMismatches: sum('countMismatches'),
    otherCpuShare: Math.max(...rounds.map((r) => r.otherCpuShare)),
    cpuMsPerRequest: rounds[rounds.length >> 1].cpuMsPerRequest,
    rounds,
  };
}

function ratios(results, sizes) {
  const small = sizes[0];
  const large = sizes[sizes.length - 1];
  return GOAL_KINDS.map((kind) => {
    const of = results.find((r) => r.kind === kind && r.size === large);
    const to = results.find((r) => r.kind === kind && r.size === small);
    const value = of.latencyP50Ms / to.latencyP50Ms;
    return { name: `${kind} page p50 ${large} / ${small}`, value, goal: GOAL, met: value <= GOAL };
  });
}

function table(results) {
  const rows = [
    ['list', 'count', 'req/s (avg)', 'p50 ms', 'p99 ms', 'mean ms', 'non-2xx', 'errors', 'bad count', 'body B', 'other CPU'],
    ...results.map((r) => [
      r.label,
      String(r.count),
      r.requestsPerSec.toFixed(0),
      String(r.latencyP50Ms),
      String(r.latencyP99Ms),
      r.latencyMeanMs.toFixed(2),
      String(r.non2xx),
      String(r.errors + r.timeouts),
      String(r.countMismatches),
      String(r.bodyBytes),
      `${(r.otherCpuShare * 100).toFixed(0)}%`,
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  const line = (row) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  return [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

async function main() {
  applySmoke('lists');
  const config = settings();
  const lists = listSettings();
  const options = { logLevel: process.env.BENCH_LOG_LEVEL || 'warn', telemetry: process.env.BENCH_TELEMETRY !== '0' };
  log(
    `sizes ${lists.sizes.join(', ')}; pages of ${lists.limit}; ${config.connections} connections, ${config.warmup} s warm-up + ${config.duration} s per list, ${lists.rounds} round(s)`,
  );

  const b = await startBindery({ log, cleanup, ...options });
  const client = new MongoClient(b.env.MONGODB_URL, { serverSelectionTimeoutMS: 5000 });
  cleanup.push(() => client.close());
  const db = client.db(b.env.IDENTITY_DB);

  const targets = [];
  for (const size of lists.sizes) {
    const { json: org } = await api(b, 'POST', '/v1/orgs', { title: `Bench list ${size}` });
    const started = Date.now();
    const userIds = await seed(db, org.id, size);
    log(`organization ${org.id}: seeded ${size} members in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const count = size + 1; // the bench user, its admin
    const middle = Math.floor(count / 2);
    const deepPage = await cursorAt(b, org.id, middle);
    const pages = {
      first: { route: membersRoute(org.id, lists.limit) },
      // offset 0 is the bench user, offset j ≥ 1 the member seeded j-th from the end
      deep: { route: membersRoute(org.id, lists.limit, deepPage), firstId: userIds[size - middle], offset: middle },
    };
    for (const kind of GOAL_KINDS) {
      const label = `${kind === 'first' ? 'first page' : `page at ${pages[kind].offset}`}, ${size}`;
      targets.push({
        id: `${kind}-${size}`,
        kind,
        size,
        count,
        limit: lists.limit,
        label,
        ...pages[kind],
        url: b.baseUrl + pages[kind].route,
        headers: { authorization: `Bearer ${b.token}` },
      });
    }
  }
  for (const target of targets) {
    target.bodyBytes = await verify(b, target);
    log(`${target.label}: 200, count ${target.count}, body ${target.bodyBytes} bytes`);
  }

  // First pages, then deep pages; within each, the sizes in turn (reversed every other round), so
  // that a drift of the machine during the run does not fall on one size only.
  const order = GOAL_KINDS.flatMap((kind) => lists.sizes.map((size) => targets.find((t) => t.kind === kind && t.size === size)));
  const figures = new Map(targets.map((t) => [t.id, []]));
  for (let round = 0; round < lists.rounds; round++) {
    const sequence = round % 2 ? GOAL_KINDS.flatMap((kind) => order.filter((t) => t.kind === kind).reverse()) : order;
    for (const target of sequence) {
      log(`round ${round + 1}: measuring ${target.label} …`);
      figures.get(target.id).push(await measureList(target, b.pids, config));
    }
  }
  for (const target of targets) await verify(b, target); // nothing changed underneath the measurements

  const results = order.map((t) => summarize(t, figures.get(t.id)));
  const ratioList = ratios(results, lists.sizes);
  const ratioText = ratioList.map((r) => `${r.name.padEnd(30)} ${r.value.toFixed(2)}×  (goal ≤ ${r.goal}×: ${r.met ? 'met' : 'NOT met'})`).join('\n');
  console.log(`\n${table(results)}\n\n${ratioText}\n\n${report.cpuLines(results)}\n`);
  if (results.some((r) => r.non2xx || r.errors || r.timeouts || r.countMismatches)) {
    process.exitCode = 1;
    console.error('[bench:lists] some requests failed or carried a wrong count: the figures are not valid');
  }

  const out = path.join(__dirname, 'results', process.env.BENCH_OUTPUT || 'lists.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const json = { date: new Date().toISOString(), machine: report.machine(), settings: { ...config, ...lists, bindery: options }, results, ratios: ratioList };
  fs.writeFileSync(out, JSON.stringify(json, null, 2) + '\n');
  log(`wrote ${path.relative(process.cwd(), out)}`);
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    log(`${signal}: stopping what the benchmark started`);
    runCleanup().finally(() => process.exit(130));
  });
}

main().then(runCleanup, async (err) => {
  console.error(`[bench:lists] ${err.stack || err.message}`);
  await runCleanup();
  process.exitCode = 1;
});
