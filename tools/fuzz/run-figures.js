#!/usr/bin/env node
'use strict';
// The figures of a fuzz run, from Schemathesis's NDJSON report: printed at the end of `npm run fuzz`,
// or again for a report kept: `node tools/fuzz/run-figures.js [.cache/fuzz/report/last-run.ndjson]`.
const fs = require('node:fs');

/** The events of a report, one JSON object a line: [name, fields]. */
function* eventsOf(text) {
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    const event = JSON.parse(line);
    const name = Object.keys(event)[0];
    yield [name, event[name]];
  }
}

/**
 * Per check, the test cases that passed and failed it (and the operations of the failures); the test
 * cases per phase; the answers by status class; the errors (a request timed out, Schemathesis could
 * not generate) by operation; the operations whose schema-valid (positive) test cases were all
 * answered 404, which no check got past; the run's duration.
 */
function runFigures(text) {
  const checks = new Map();
  const phases = new Map();
  const statuses = { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 };
  const positive = new Map();
  const operations = new Set();
  const errors = [];
  let first;
  let last;
  let runningTime;
  for (const [name, e] of eventsOf(text)) {
    if (typeof e?.timestamp === 'number') {
      first ??= e.timestamp;
      last = e.timestamp;
    }
    if (name === 'EngineFinished') runningTime = e.running_time;
    if (name === 'NonFatalError' || name === 'FatalError')
      errors.push({ label: e.label ?? '(the run)', phase: e.phase ?? '', message: `${e.value?.type ?? 'Error'}: ${e.value?.message ?? ''}`.trim() });
    if (name !== 'ScenarioFinished' && name !== 'FuzzScenarioFinished') continue;
    const recorder = e.recorder ?? {};
    const cases = Object.entries(recorder.cases ?? {});
    if (!cases.length) continue;
    phases.set(e.phase, (phases.get(e.phase) ?? 0) + cases.length);
    // a stateful scenario calls several operations: each case names its own
    const labelOf = (id) => {
      const c = recorder.cases[id]?.value;
      return e.phase === 'stateful' && c?.method && c?.path ? `${c.method} ${c.path}` : recorder.label;
    };
    for (const [id, c] of cases) {
      const label = labelOf(id);
      operations.add(label);
      const status = recorder.interactions?.[id]?.response?.status_code;
      if (typeof status === 'number' && status >= 200 && status < 600) statuses[`${Math.floor(status / 100)}xx`]++;
      if (status === undefined || c.value?.meta?.generation?.mode !== 'positive') continue;
      const seen = positive.get(label) ?? new Set();
      positive.set(label, seen.add(status));
    }
    for (const [id, results] of Object.entries(recorder.checks ?? {}))
      for (const { name: check, status } of results) {
        const f = checks.get(check) ?? { passed: 0, failed: 0, operations: new Set() };
        if (status === 'success') f.passed++;
        else if (status === 'failure') {
          f.failed++;
          f.operations.add(labelOf(id));
        }
        checks.set(check, f);
      }
  }
  const only404 = [...positive].filter(([, seen]) => seen.size === 1 && seen.has(404)).map(([label]) => label);
  const cases = [...phases.values()].reduce((a, b) => a + b, 0);
  const durationS = runningTime ?? (first === undefined ? 0 : last - first);
  return { checks, phases, statuses, cases, operations: operations.size, errors, only404: only404.sort(), withPositive: positive.size, durationS };
}

const failedOf = (f, name) => f.checks.get(name)?.failed ?? 0;
const n = (x) => x.toLocaleString('en-US');

function printRunFigures(f) {
  console.log('\nChecks (test cases passed / failed):');
  for (const [name, c] of [...f.checks].sort(([a], [b]) => a.localeCompare(b)))
    console.log(
      `  ${name.padEnd(30)} ${String(c.passed).padStart(6)} passed  ${String(c.failed).padStart(4)} failed${c.failed ? `  (${[...c.operations].sort().join('; ')})` : ''}`,
    );
  console.log(`\nOperations whose schema-valid test cases were all answered 404: ${f.only404.length} of ${f.withPositive}`);
  for (const label of f.only404) console.log(`  ${label}`);
  if (f.errors.length) {
    console.log(`\nErrors (${f.errors.length}):`);
    for (const e of f.errors) console.log(`  ${e.label} [${e.phase}]: ${e.message.split('\n')[0].slice(0, 300)}`);
  }
  const known = ['not_a_server_error', 'response_schema_conformance', 'positive_data_acceptance'];
  const others = [...f.checks].filter(([name, c]) => c.failed && !known.includes(name)).map(([name, c]) => `${name} ${c.failed}`);
  console.log('\nSummary:');
  console.log(
    `  ${f.operations} operations tested, ${n(f.cases)} test cases (${[...f.phases].map(([p, c]) => `${p} ${n(c)}`).join(', ')}) in ${(f.durationS / 60).toFixed(1)} min`,
  );
  console.log(
    `  answers: ${Object.entries(f.statuses)
      .map(([k, v]) => `${k} ${n(v)}`)
      .join(', ')}`,
  );
  console.log(`  5xx answers: ${f.statuses['5xx']} (not_a_server_error failures: ${failedOf(f, 'not_a_server_error')})`);
  console.log(`  response schema violations: ${failedOf(f, 'response_schema_conformance')}`);
  console.log(`  schema-valid requests refused (positive_data_acceptance): ${failedOf(f, 'positive_data_acceptance')}`);
  console.log(`  other failed checks: ${others.length ? others.join(', ') : 'none'}`);
  console.log(`  errors (timeouts, generation): ${f.errors.length}`);
  console.log(`  operations only ever answered 404: ${f.only404.length} of ${f.withPositive}`);
}

module.exports = { runFigures, printRunFigures };

if (require.main === module) {
  const file = process.argv[2] ?? '.cache/fuzz/report/last-run.ndjson';
  printRunFigures(runFigures(fs.readFileSync(file, 'utf8')));
}
