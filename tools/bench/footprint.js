#!/usr/bin/env node
'use strict';
// `npm run footprint`: what a Bindery costs before its first user, split (one process per app, as the
// per-service Deployments run) and monolithic (every app in one process, apps/bindery), side by side in
// one run: time from launch to a gateway that answers /readyz, then, idle, each process's CPU over
// FOOTPRINT_WINDOW_MS after FOOTPRINT_SETTLE_MS of settling (Linux /proc), the MongoDB operations on the
// system's own databases (the `top` command: queries, getmore, insert, update, remove, commands) and
// the resident memory of every process, MongoDB and Kafka included when they run locally.
// Settings: FOOTPRINT_SETTLE_MS (20000), FOOTPRINT_WINDOW_MS (60000), FOOTPRINT_MODES (split,monolithic).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const { ensureInfra } = require('../stack/stack');
const { runningPid } = require('../stack/processes');
const { buildApps } = require('../build/build-apps');
const { bundle } = require('./bundled');
const { applySmoke } = require('./smoke');
const { measureIdle } = require('./idle');

applySmoke('footprint');

const settleMs = Number(process.env.FOOTPRINT_SETTLE_MS || 20000);
const windowMs = Number(process.env.FOOTPRINT_WINDOW_MS || 60000);
const modes = (process.env.FOOTPRINT_MODES || 'split,monolithic').split(',').map((m) => m.trim());

/** Resident memory of a process in MB (Linux /proc), undefined when it is gone or not ours to see. */
function rssMb(pid) {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return Number.isFinite(kb) ? Math.round(kb / 1024) : undefined;
  } catch {
    return undefined;
  }
}

async function readyWithin(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await fetch(url)
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** One system of the mode: its time to ready, idle CPU and MongoDB operations, memory. */
async function measure(startSystem, mode) {
  const t0 = Date.now();
  const system = await startSystem({ LOG_LEVEL: 'warn' }, { appDefaults: true, split: mode === 'split' });
  try {
    await readyWithin(`${system.baseUrl}/readyz`, 60000);
    const readyMs = Date.now() - t0;
    // A monolith is one process under every app's name: count it once.
    const byPid = new Map();
    for (const [name, app] of Object.entries(system.apps)) byPid.set(app.child.pid, byPid.has(app.child.pid) ? 'bindery' : name);
    const apps = Object.fromEntries([...byPid].map(([pid, name]) => [name, system.apps[Object.keys(system.apps).find((n) => system.apps[n].child.pid === pid)]]));
    const infra = Object.fromEntries(
      ['mongod', 'kafka']
        .map((name) => [name, runningPid(name)])
        .filter(([, pid]) => pid)
        .map(([name, pid]) => [name, { name, child: { pid } }]),
    );
    const idle = await measureIdle({ ...system, apps: { ...apps, ...infra } }, { settleMs, windowMs });
    const rss = Object.fromEntries(Object.entries({ ...apps, ...infra }).map(([name, app]) => [name, rssMb(app.child.pid)]));
    return { mode, readyMs, idle, rss, nodeNames: Object.keys(apps), infraNames: Object.keys(infra) };
  } finally {
    await system.stop();
  }
}

const sum = (values) => values.filter(Number.isFinite).reduce((a, b) => a + b, 0);
const fmt = (n, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '–');

function report(results) {
  const col = (label, f, digits) => `${label.padEnd(44)}${results.map((r) => fmt(f(r), digits).padStart(14)).join('')}`;
  console.log(`\nfootprint: idle ${windowMs / 1000} s after ${settleMs / 1000} s of settling`);
  console.log(`${''.padEnd(44)}${results.map((r) => r.mode.padStart(14)).join('')}`);
  console.log(col('time to ready (ms)', (r) => r.readyMs));
  console.log(col('Node processes', (r) => r.nodeNames.length));
  console.log(col('CPU % of one core, Node', (r) => sum(r.nodeNames.map((n) => r.idle.cpu[n])), 2));
  console.log(col('CPU % of one core, mongod', (r) => r.idle.cpu.mongod, 2));
  console.log(col('CPU % of one core, Kafka', (r) => r.idle.cpu.kafka, 2));
  console.log(col('CPU % of one core, whole stack', (r) => sum(Object.values(r.idle.cpu)), 2));
  console.log(col('MongoDB ops/s (the system databases)', (r) => r.idle.mongoOpsPerSecond, 3));
  console.log(col('RSS MB, Node', (r) => sum(r.nodeNames.map((n) => r.rss[n]))));
  console.log(col('RSS MB, mongod', (r) => r.rss.mongod));
  console.log(col('RSS MB, Kafka', (r) => r.rss.kafka));
  console.log(col('RSS MB, whole stack', (r) => sum(Object.values(r.rss))));
  console.log('\nper process (CPU % of one core / RSS MB):');
  for (const r of results) {
    console.log(`  ${r.mode}: ${[...r.nodeNames, ...r.infraNames].map((n) => `${n} ${fmt(r.idle.cpu[n], 2)} / ${fmt(r.rss[n])}`).join(', ')}`);
  }
}

async function main() {
  const infra = await ensureInfra((line) => console.log(`[footprint] ${line}`));
  if (process.env.BENCH_APPS_BUILT !== '1') await buildApps();
  const { startSystem } = require(await bundle(path.join(__dirname, 'system.ts'), 'system'));
  const run = `fp${randomBytes(4).toString('hex')}`;
  Object.assign(process.env, { BINDERY_TEST_MONGODB_URL: infra.mongoUrl, BINDERY_TEST_KAFKA_BROKERS: infra.kafkaBrokers, BINDERY_TEST_RUN: run, MONGODB_URL: infra.mongoUrl });
  const results = [];
  try {
    for (const mode of modes) {
      console.log(`[footprint] ${mode}: starting and measuring`);
      results.push(await measure(startSystem, mode));
    }
  } finally {
    fs.rmSync(path.join(os.tmpdir(), `bindery-test-${run}`), { recursive: true, force: true });
  }
  report(results);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err.stack || err.message);
    process.exit(1);
  },
);
