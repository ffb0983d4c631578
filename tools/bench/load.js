#!/usr/bin/env node
'use strict';
// `npm run bench:load`: mixed load on a private Bindery. BENCH_CONNECTIONS (32) clients each loop for
// BENCH_DURATION (60) seconds; each turn is a write cycle with probability BENCH_WRITE_SHARE (0.2), else
// one read. Reads go round the organization, the space, a page, its Markdown and the space's change
// requests. A write cycle, into the one space all writers share: open a change request, write one
// page's content, mark it open for review, merge. Prints req/s, read and write-cycle latencies, the
// answers by status and, per call of the cycle, its p50. A 503 is a failure unless a service was
// really down: `--kill content@20s` (or BENCH_KILL=content@20) stops that service with SIGKILL at
// that second, starts it again, and afterwards checks that every merge answered 200 is in the space.
// The process exits non-zero on a 503 outside an outage, on a lost merge, or on a request that failed
// with no answer outside an outage.
const { startBindery } = require('./bindery');
const { spaceWithPages } = require('./fixtures');
const { applySmoke } = require('./smoke');

const log = (message) => console.error(`[bench:load] ${message}`);
const cleanup = [];
async function runCleanup() {
  while (cleanup.length) {
    try {
      await cleanup.pop()();
    } catch (err) {
      log(`cleanup: ${err.message}`);
    }
  }
}

function settings(env = process.env, argv = process.argv.slice(2)) {
  const num = (name, fallback) => {
    const value = Number(env[name] ?? fallback);
    if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number ≥ 0`);
    return value;
  };
  const killArg = argv.find((a) => a.startsWith('--kill'));
  const kill = (killArg ? (killArg.includes('=') ? killArg.split('=')[1] : argv[argv.indexOf(killArg) + 1]) : env.BENCH_KILL) || '';
  const match = kill && /^([a-z-]+)@(\d+(?:\.\d+)?)s?$/.exec(kill);
  if (kill && !match) throw new Error(`--kill takes <service>@<seconds>s, e.g. content@20s (got "${kill}")`);
  return {
    duration: num('BENCH_DURATION', 60),
    connections: Math.max(1, Math.round(num('BENCH_CONNECTIONS', 32))),
    writeShare: num('BENCH_WRITE_SHARE', 0.2),
    pages: Math.max(1, Math.round(num('BENCH_SPACE_PAGES', 20))),
    kill: match ? { service: match[1], atSeconds: Number(match[2]) } : undefined,
  };
}

const percentile = (values, p) => {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const ms = (v) => (Number.isNaN(v) ? '-' : String(Math.round(v)));

/** The figures of one run: every answer by status, latencies by kind and by call of the cycle. */
function recorder() {
  const statuses = new Map();
  const refusals = new Map(); // "<call> <status>" of every answer that is no success
  const reads = [];
  const cycles = [];
  const calls = new Map();
  const outage = { from: Infinity, to: -Infinity };
  const failed = []; // { at, what } of every 503 or request without an answer, judged once the outage is known
  return {
    statuses,
    refusals,
    reads,
    cycles,
    calls,
    outage,
    /** the failures outside the outage (a service SIGKILLed and started again) and during it */
    failures() {
      const during = failed.filter((f) => f.at >= outage.from && f.at <= outage.to);
      const outside = failed.filter((f) => !(f.at >= outage.from && f.at <= outage.to));
      return { during: during.length, outside: outside.length, samples: outside.slice(0, 5).map((f) => f.what) };
    },
    answer(kind, status, latency, at) {
      const key = `${status}`;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      if (status >= 300) refusals.set(`${kind} ${status}`, (refusals.get(`${kind} ${status}`) ?? 0) + 1);
      if (status >= 200 && status < 300) (calls.get(kind) ?? calls.set(kind, []).get(kind)).push(latency);
      if (kind.startsWith('read ') && status === 200) reads.push(latency);
      if (status === 503) failed.push({ at, what: `${kind} 503` });
    },
    noAnswer(kind, err, at) {
      statuses.set('no answer', (statuses.get('no answer') ?? 0) + 1);
      failed.push({ at, what: `${kind}: ${err.message}` });
    },
  };
}

/** One HTTP call, timed; resolves with { status, json } (json undefined when the body is not JSON). */
async function timed(rec, kind, baseUrl, token, method, route, body) {
  const started = performance.now();
  try {
    const res = await fetch(baseUrl + route, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(30000),
    });
    const text = await res.text();
    rec.answer(kind, res.status, performance.now() - started, performance.now());
    let json;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, json };
  } catch (err) {
    rec.noAnswer(kind, err, performance.now());
    return { status: 0 };
  }
}

const markdown = (n) => `## Change ${n}\n\nWritten by the load bench.\n`;

async function main() {
  applySmoke('load');
  const config = settings();
  log(
    `${config.connections} connections, ${config.duration} s, ${Math.round(config.writeShare * 100)} % write cycles into one space` +
      (config.kill ? `; ${config.kill.service} killed (SIGKILL) at ${config.kill.atSeconds} s and started again` : ''),
  );
  const b = await startBindery({ log, cleanup, logLevel: process.env.BENCH_LOG_LEVEL || 'warn', telemetry: process.env.BENCH_TELEMETRY !== '0' });
  const { spaceId, pageId } = await spaceWithPages(b, config.pages);
  const space = `/v1/spaces/${spaceId}`;
  const readRoutes = [
    ['read org', b.route],
    ['read space', space],
    ['read page', `${space}/content/page/${pageId}`],
    ['read markdown', `${space}/content/page/${pageId}?format=markdown`],
    ['read change requests', `${space}/change-requests`],
  ];

  const rec = recorder();
  const merged = []; // { crId, revision, title } of every merge answered 200 "merge"
  let cycleNumber = 0;
  const call = (kind, method, route, body) => timed(rec, kind, b.baseUrl, b.token, method, route, body);

  async function writeCycle() {
    const n = (cycleNumber += 1);
    const title = `Load ${n} ${Date.now().toString(36)}`;
    const started = performance.now();
    const created = await call('create', 'POST', `${space}/change-requests`, { subject: `Load change ${n}` });
    if (created.status !== 201) return;
    const cr = `${space}/change-requests/${created.json.id}`;
    const written = await call('write content', 'POST', `${cr}/content`, { changes: [{ operation: 'insert_page', title, document: { markdown: markdown(n) } }] });
    if (written.status !== 200) return;
    const opened = await call('open', 'PATCH', cr, { status: 'open' });
    if (opened.status !== 200) return;
    const merge = await call('merge', 'POST', `${cr}/merge`);
    if (merge.status !== 200) return;
    if (merge.json?.result === 'merge') merged.push({ crId: created.json.id, revision: merge.json.revision, title });
    rec.cycles.push(performance.now() - started);
  }

  let reader = 0;
  const started = performance.now();
  const end = started + config.duration * 1000;
  async function client() {
    while (performance.now() < end) {
      if (Math.random() < config.writeShare) await writeCycle();
      else {
        const [kind, route] = readRoutes[reader++ % readRoutes.length];
        await call(kind, 'GET', route);
      }
    }
  }

  let killed;
  if (config.kill) {
    const { service, atSeconds } = config.kill;
    killed = new Promise((resolve) => setTimeout(resolve, atSeconds * 1000)).then(async () => {
      rec.outage.from = performance.now();
      log(`${service}: SIGKILL at ${((rec.outage.from - started) / 1000).toFixed(1)} s`);
      await b.sut.stopService(service, 'SIGKILL');
      await b.sut.restartService(service);
      // the outage lasts until every caller of the service reaches it again: the gateway (a space) and
      // change-requests (its list reads the space from content)
      for (const route of [space, `${space}/change-requests`]) {
        for (;;) {
          const res = await fetch(`${b.baseUrl}${route}`, { headers: { authorization: `Bearer ${b.token}` } }).catch(() => undefined);
          if (res?.status === 200) break;
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      rec.outage.to = performance.now();
      log(`${service}: answering again after ${((rec.outage.to - rec.outage.from) / 1000).toFixed(1)} s`);
    });
  }
  await Promise.all(Array.from({ length: config.connections }, client));
  await killed;
  const seconds = (performance.now() - started) / 1000;

  // Every merge answered 200 is there: its change request is merged into the revision it answered,
  // and its page is in the space's current content.
  let lost = 0;
  const { json: pages } = await b.call('GET', `${space}/content/pages`);
  const titles = new Set();
  const walk = (list) => {
    for (const p of list ?? []) {
      titles.add(p.title);
      walk(p.pages);
    }
  };
  walk(pages.pages);
  for (const m of merged) {
    const { json: cr } = await b.call('GET', `${space}/change-requests/${m.crId}`);
    if (cr.status !== 'merged' || cr.revisionMerged !== m.revision || !titles.has(m.title)) {
      lost += 1;
      if (lost <= 5) log(`lost: change request ${m.crId} (${cr.status}, ${cr.revisionMerged} vs ${m.revision}, page ${titles.has(m.title) ? 'present' : 'missing'})`);
    }
  }

  const failures = rec.failures();
  const total = [...rec.statuses.values()].reduce((a, v) => a + v, 0);
  const lines = [
    '',
    `requests ${total} in ${seconds.toFixed(1)} s: ${(total / seconds).toFixed(1)} req/s (${config.connections} connections, ${Math.round(config.writeShare * 100)} % write cycles)`,
    `reads p50 ${ms(percentile(rec.reads, 50))} ms / p99 ${ms(percentile(rec.reads, 99))} ms (${rec.reads.length})`,
    `write cycles p50 ${ms(percentile(rec.cycles, 50))} ms / p99 ${ms(percentile(rec.cycles, 99))} ms (${rec.cycles.length} complete)`,
    `per call p50 / p99 ms: ${[...rec.calls].map(([kind, v]) => `${kind} ${ms(percentile(v, 50))}/${ms(percentile(v, 99))}`).join(', ')}`,
    `statuses: ${[...rec.statuses]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([s, n]) => `${s} ${n}`)
      .join(', ')}`,
    `refusals by call: ${
      [...rec.refusals]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, n]) => `${k} ${n}`)
        .join(', ') || 'none'
    }`,
    `503 or no answer: ${failures.outside} outside an outage, ${failures.during} during one`,
    `merges acknowledged ${merged.length}, lost ${lost}`,
    '',
  ];
  console.log(lines.join('\n'));
  if (failures.outside) {
    process.exitCode = 1;
    log(`failed: ${failures.outside} answers were 503 or none while every service was up: ${failures.samples.join('; ')}`);
  }
  if (lost) {
    process.exitCode = 1;
    log(`failed: ${lost} acknowledged merges are missing`);
  }
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    log(`${signal}: stopping what the benchmark started`);
    runCleanup().finally(() => process.exit(130));
  });
}

main().then(runCleanup, async (err) => {
  console.error(`[bench:load] ${err.stack || err.message}`);
  await runCleanup();
  process.exitCode = 1;
});
