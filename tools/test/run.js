#!/usr/bin/env node
'use strict';
// `npm test`: brings up the real MongoDB replica set and Kafka broker (or uses MONGODB_URL /
// KAFKA_BROKERS), builds the apps, typechecks every project (typecheck.js: one passed or failed entry
// per project), runs every project's tests with Jest, and ends with the line "N passed, N failed,
// N skipped" counting both. Given paths (`npm test -- libs/content`), it typechecks the projects holding
// them; given only name patterns, none. Infrastructure it had to start is stopped again afterwards.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { ensureInfra } = require('../stack/stack');
const { runningPid, stop } = require('../stack/processes');
const { buildApps } = require('../build/build-apps');
const { typecheckProjects, select, typecheck } = require('./typecheck');
const { scanKafka, scanLogs } = require('../checks/secret-scan');
const { deleteTestTopics } = require('./test-topics');

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

/** The projects to typecheck for these jest arguments: all without any, those holding the paths among them otherwise. */
function projectsToTypecheck(args) {
  const all = typecheckProjects();
  if (!args.length) return all;
  const paths = args.filter((a) => !a.startsWith('-') && fs.existsSync(path.resolve(a)));
  return paths.length ? select(all, paths) : [];
}

function runTypecheck(log) {
  const projects = projectsToTypecheck(process.argv.slice(2));
  if (!projects.length) {
    log('typecheck: no project holds the paths given (npm run typecheck checks them all)');
    return { passed: 0, failed: 0 };
  }
  log(`typecheck of ${projects.length} project(s) …`);
  const results = typecheck(projects);
  for (const r of results) if (r.errors.length) console.error(`[test] typecheck ${r.name}: ${r.errors.length} error(s)\n${r.errors.join('\n')}`);
  const failed = results.filter((r) => r.errors.length).length;
  log(`typecheck: ${results.length - failed} project(s) passed, ${failed} failed`);
  return { passed: results.length - failed, failed };
}

/**
 * No secret (API token, share-link key, site token) in the logs of any app the suites started nor in
 * any event on the broker: one more passed or failed entry. Skipped when no app was started.
 */
async function secretScan(log, logDir, brokers) {
  const logs = scanLogs(logDir);
  if (!logs.files) return { passed: 0, failed: 0 };
  let kafka = { topics: 0, messages: 0, found: [] };
  try {
    kafka = await scanKafka(brokers);
  } catch (err) {
    log(`secret scan: Kafka could not be read (${err.message})`);
    return { passed: 0, failed: 1 };
  }
  const found = [...logs.found, ...kafka.found];
  log(`secret scan: ${logs.lines} log lines in ${logs.files} files, ${kafka.messages} events in ${kafka.topics} topics: ${found.length} secret(s)`);
  for (const f of found.slice(0, 20)) log(`  secret found: ${f}`);
  return found.length ? { passed: 0, failed: 1 } : { passed: 1, failed: 0 };
}

async function main() {
  const log = (m) => console.log(`[test] ${m}`);
  const types = runTypecheck(log);
  const before = { mongod: runningPid('mongod'), kafka: runningPid('kafka') };
  const infra = await ensureInfra(log);
  await buildApps();
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-jest-'));
  const out = path.join(runDir, 'results.json');
  const logDir = path.join(runDir, 'logs');
  fs.mkdirSync(logDir);
  const jest = require.resolve('jest/bin/jest');
  const result = spawnSync(process.execPath, [jest, '-c', path.join(root, 'jest.config.cjs'), '--json', `--outputFile=${out}`, ...process.argv.slice(2)], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, BINDERY_TEST_MONGODB_URL: infra.mongoUrl, BINDERY_TEST_KAFKA_BROKERS: infra.kafkaBrokers, BINDERY_TEST_LOG_DIR: logDir },
  });
  const secrets = await secretScan(log, logDir, infra.kafkaBrokers);
  // Scanned: the test namespaces' topics go, so the local broker starts quickly again (test-topics.js).
  if (!process.env.KAFKA_BROKERS)
    await deleteTestTopics(infra.kafkaBrokers).then(
      (n) => log(`deleted ${n} test topics`),
      (err) => log(`could not delete the test topics (${err.message})`),
    );
  if (!process.env.MONGODB_URL && !before.mongod) await stop('mongod');
  if (!process.env.KAFKA_BROKERS && !before.kafka) await stop('kafka');
  if (!fs.existsSync(out)) {
    console.log(`${types.passed} passed, ${types.failed + 1} failed, 0 skipped`);
    process.exit(1);
  }
  const s = summarize(out);
  console.log(`${s.passed + types.passed + secrets.passed} passed, ${s.failed + types.failed + secrets.failed} failed, ${s.skipped} skipped`);
  process.exit(result.status === 0 && s.failed === 0 && types.failed === 0 && secrets.failed === 0 ? 0 : 1);
}

main().catch((err) => {
  console.error(`[test] ${err.stack || err.message}`);
  console.log('0 passed, 1 failed, 0 skipped');
  process.exit(1);
});
