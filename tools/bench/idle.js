#!/usr/bin/env node
'use strict';
// What an idle Bindery costs: each app process's CPU (Linux /proc) and the MongoDB operations on the
// system's own databases (the `top` admin command counts them per collection, so other work on the
// same server is left out), over a window after the system settled. `measureIdle` is the measure;
// run as a script it starts a private system with the apps' own timings and prints the figures.
// Settings (environment): IDLE_SETTLE_MS (20000), IDLE_WINDOW_MS (60000), IDLE_JSON (1: print JSON).
const path = require('node:path');
const { MongoClient } = require('mongodb');
const { cpuSince } = require('./cpu');

const OPS = ['queries', 'getmore', 'insert', 'update', 'remove', 'commands'];

/** Operation counts by database (and by collection within it), for the databases named. */
async function opCounts(client, databases) {
  const { totals } = await client.db('admin').command({ top: 1 });
  const byDb = Object.fromEntries(databases.map((db) => [db, { total: 0, byCollection: {} }]));
  for (const [ns, entry] of Object.entries(totals)) {
    const dot = ns.indexOf('.');
    if (dot < 0) continue;
    const db = byDb[ns.slice(0, dot)];
    if (!db) continue;
    const count = OPS.reduce((sum, op) => sum + (entry[op]?.count ?? 0), 0);
    db.total += count;
    db.byCollection[ns.slice(dot + 1)] = count;
  }
  return byDb;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (n, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * Measures a running system (libs/shared/testing's SystemUnderTest: `apps` with their child
 * processes, `env` with MONGODB_URL and each service's `<PREFIX>_DB`) while nobody uses it: waits
 * `settleMs`, then over `windowMs` answers { cpu: { app: % of one core }, nodeCpuPercent,
 * mongo: { database: ops/s }, mongoOpsPerSecond, collections: { database: { collection: ops/s } } }.
 */
async function measureIdle(system, { settleMs = 20000, windowMs = 60000 } = {}) {
  const databases = Object.entries(system.env)
    .filter(([key]) => key.endsWith('_DB'))
    .map(([, value]) => value);
  const pids = Object.fromEntries(Object.entries(system.apps).map(([name, app]) => [name, app.child.pid]));
  const client = await MongoClient.connect(system.env.MONGODB_URL);
  try {
    await sleep(settleMs);
    const before = await opCounts(client, databases);
    const cpu = cpuSince(pids);
    const t0 = Date.now();
    await sleep(windowMs);
    const used = cpu();
    const seconds = (Date.now() - t0) / 1000;
    const after = await opCounts(client, databases);
    const cpuPercent = Object.fromEntries(Object.entries(used.perProcess).map(([name, ms]) => [name, round(ms / 10 / seconds)]));
    const mongo = {};
    const collections = {};
    for (const db of databases) {
      mongo[db] = round((after[db].total - before[db].total) / seconds, 3);
      collections[db] = Object.fromEntries(
        Object.entries(after[db].byCollection)
          .map(([coll, n]) => [coll, round((n - (before[db].byCollection[coll] ?? 0)) / seconds, 3)])
          .filter(([, rate]) => rate > 0),
      );
    }
    return {
      seconds: round(seconds, 1),
      cpu: cpuPercent,
      nodeCpuPercent: round(Object.values(cpuPercent).reduce((a, b) => a + b, 0)),
      mongo,
      mongoOpsPerSecond: round(
        Object.values(mongo).reduce((a, b) => a + b, 0),
        3,
      ),
      collections,
    };
  } finally {
    await client.close();
  }
}

function print(result) {
  console.log(`idle over ${result.seconds} s`);
  for (const [name, pct] of Object.entries(result.cpu)) console.log(`  cpu ${name.padEnd(16)} ${pct.toFixed(2)} %`);
  console.log(`  cpu all node apps    ${result.nodeCpuPercent.toFixed(2)} % of one core`);
  for (const [db, rate] of Object.entries(result.mongo)) {
    const detail = Object.entries(result.collections[db])
      .map(([c, r]) => `${c} ${r}`)
      .join(', ');
    console.log(`  mongo ${db.padEnd(40)} ${rate.toFixed(3)} ops/s${detail ? ` (${detail})` : ''}`);
  }
  console.log(`  mongo all databases  ${result.mongoOpsPerSecond.toFixed(3)} ops/s`);
}

async function main() {
  const os = require('node:os');
  const fs = require('node:fs');
  const { randomBytes } = require('node:crypto');
  const { buildApps } = require('../build/build-apps');
  const { bundle } = require('./bundled');
  const mongoUrl = process.env.MONGODB_URL;
  const kafkaBrokers = process.env.KAFKA_BROKERS;
  if (!mongoUrl || !kafkaBrokers) throw new Error('set MONGODB_URL and KAFKA_BROKERS to the running infrastructure');
  await buildApps();
  const { startSystem } = require(await bundle(path.join(__dirname, 'system.ts'), 'system'));
  const run = `idle${randomBytes(4).toString('hex')}`;
  Object.assign(process.env, { BINDERY_TEST_MONGODB_URL: mongoUrl, BINDERY_TEST_KAFKA_BROKERS: kafkaBrokers, BINDERY_TEST_RUN: run });
  const system = await startSystem({ LOG_LEVEL: 'warn' }, { appDefaults: true });
  try {
    const result = await measureIdle(system, { settleMs: Number(process.env.IDLE_SETTLE_MS || 20000), windowMs: Number(process.env.IDLE_WINDOW_MS || 60000) });
    if (process.env.IDLE_JSON === '1') console.log(JSON.stringify(result, null, 2));
    else print(result);
  } finally {
    await system.stop();
    const client = await MongoClient.connect(mongoUrl);
    for (const [key, db] of Object.entries(system.env)) if (key.endsWith('_DB')) await client.db(db).dropDatabase();
    await client.close();
    fs.rmSync(path.join(os.tmpdir(), `bindery-test-${run}`), { recursive: true, force: true });
  }
}

module.exports = { measureIdle };

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(err.stack || err.message);
      process.exit(1);
    },
  );
}
