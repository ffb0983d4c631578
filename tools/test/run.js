#!/usr/bin/env node
'use strict';
// `npm test`: brings up the real MongoDB replica set and Kafka broker (or uses MONGODB_URL /
// KAFKA_BROKERS), builds the apps, runs every project's tests with Jest, and ends with the line
// "N passed, N failed, N skipped". Infrastructure it had to start is stopped again afterwards.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { ensureInfra } = require('../stack/stack');
const { runningPid, stop } = require('../stack/processes');
const { buildApps } = require('../build/build-apps');

const root = path.resolve(__dirname, '..', '..');

function summarize(file) {
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  const crashed = r.testResults.filter((s) => s.status === 'failed' && s.assertionResults.length === 0).length;
  return {
    passed: r.numPassedTests,
    failed: r.numFailedTests + crashed + (r.numRuntimeErrorTestSuites > crashed ? r.numRuntimeErrorTestSuites - crashed : 0),
    skipped: r.numPendingTests + r.numTodoTests,
  };
}

async function main() {
  const log = (m) => console.log(`[test] ${m}`);
  const before = { mongod: runningPid('mongod'), kafka: runningPid('kafka') };
  const infra = await ensureInfra(log);
  await buildApps();
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-jest-')), 'results.json');
  const jest = require.resolve('jest/bin/jest');
  const result = spawnSync(process.execPath, [jest, '-c', path.join(root, 'jest.config.cjs'), '--json', `--outputFile=${out}`, ...process.argv.slice(2)], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, BINDERY_TEST_MONGODB_URL: infra.mongoUrl, BINDERY_TEST_KAFKA_BROKERS: infra.kafkaBrokers },
  });
  if (!process.env.MONGODB_URL && !before.mongod) await stop('mongod');
  if (!process.env.KAFKA_BROKERS && !before.kafka) await stop('kafka');
  if (!fs.existsSync(out)) {
    console.log('0 passed, 1 failed, 0 skipped');
    process.exit(1);
  }
  const s = summarize(out);
  console.log(`${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped`);
  process.exit(result.status === 0 && s.failed === 0 ? 0 : 1);
}

main().catch((err) => {
  console.error(`[test] ${err.stack || err.message}`);
  console.log('0 passed, 1 failed, 0 skipped');
  process.exit(1);
});
