'use strict';
// The results table, the ratios between targets, and the JSON written to results/latest.json.
const os = require('node:os');

const RATIOS = [
  { name: 'express→gRPC / express', of: 'relay', to: 'express' },
  { name: 'Bindery / express→gRPC', of: 'bindery', to: 'relay', goal: 0.5 },
  { name: 'Bindery / express', of: 'bindery', to: 'express' },
];

function ratios(results) {
  const byId = Object.fromEntries(results.map((r) => [r.id, r]));
  return RATIOS.filter((r) => byId[r.of] && byId[r.to]).map((r) => ({
    name: r.name,
    value: byId[r.of].requestsPerSec / byId[r.to].requestsPerSec,
    ...(r.goal ? { goal: r.goal } : {}),
  }));
}

function table(results) {
  const rows = [
    ['target', 'req/s (avg)', 'p50 ms', 'p99 ms', 'mean ms', 'non-2xx', 'errors', 'body B', 'other CPU'],
    ...results.map((r) => [
      r.label,
      r.requestsPerSec.toFixed(0),
      String(r.latencyP50Ms),
      String(r.latencyP99Ms),
      r.latencyMeanMs.toFixed(2),
      String(r.non2xx),
      String(r.errors + r.timeouts),
      String(r.bodyBytes),
      r.otherCpuShare === undefined ? '?' : `${(r.otherCpuShare * 100).toFixed(0)}%`,
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  const line = (row) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  return [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

function ratioLines(list) {
  return list.map((r) => `${r.name.padEnd(24)} ${r.value.toFixed(2)}×${r.goal ? `  (goal ≥ ${r.goal}×: ${r.value >= r.goal ? 'met' : 'NOT met'})` : ''}`).join('\n');
}

// Not summed: the load generator, and the broker, which no read goes through (what it spends meanwhile
// is the services' polling and whatever else uses it).
const NOT_SERVING = new Set(['autocannon', 'kafka']);

/** CPU ms per request summed over the processes serving the target (the apps and mongod). */
function serverCpuMs(result) {
  return Object.entries(result.cpuMsPerRequest ?? {})
    .filter(([name]) => !NOT_SERVING.has(name))
    .reduce((sum, [, ms]) => sum + ms, 0);
}

/** CPU time per request by process (the load generator included), and the sum over the servers: where each target's time goes. */
function cpuLines(results) {
  const width = Math.max(30, ...results.map((r) => r.label.length + 1));
  const lines = results.map(
    (r) =>
      `${r.label.padEnd(width)} ${Object.entries(r.cpuMsPerRequest ?? {})
        .map(([name, ms]) => `${name} ${ms.toFixed(3)}`)
        .join(', ')}; serving processes together ${serverCpuMs(r).toFixed(3)}`,
  );
  return ['CPU ms per request, by process:', ...lines].join('\n');
}

/** Bindery's reads beside its organization read (target `bindery`): req/s, their ratio to it, CPU per request of all its processes. */
function readLines(results) {
  const reads = results.filter((r) => r.label.includes('Bindery'));
  if (!reads.length) return '';
  const org = results.find((r) => r.id === 'bindery');
  const rows = [
    ['Bindery read', 'req/s', '÷ org read', 'CPU ms/req'],
    ...reads.map((r) => [r.label, r.requestsPerSec.toFixed(0), org ? `${(r.requestsPerSec / org.requestsPerSec).toFixed(2)}×` : '?', serverCpuMs(r).toFixed(2)]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  const line = (row) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  return [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

function machine() {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model,
    memoryGiB: +(os.totalmem() / 2 ** 30).toFixed(1),
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
  };
}

module.exports = { ratios, table, ratioLines, cpuLines, readLines, serverCpuMs, machine };
