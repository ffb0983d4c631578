'use strict';
// One autocannon measurement: a warm-up run whose figures are discarded, then the measured run.
const os = require('node:os');
const autocannon = require('autocannon');
const { cpuSince } = require('./cpu');

function settings(env = process.env) {
  const num = (name, fallback) => {
    const value = Number(env[name] ?? fallback);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
    return value;
  };
  return {
    duration: num('BENCH_DURATION', 10),
    warmup: num('BENCH_WARMUP', 2),
    connections: Math.round(num('BENCH_CONNECTIONS', 20)),
  };
}

/**
 * `pids` ({ name: pid }): processes whose CPU time per request is reported. `verifyBody`, when given,
 * checks every response body; the ones it refuses are counted as `mismatches`.
 */
async function measure({ url, headers = {}, pids = {}, verifyBody }, { duration, warmup, connections }) {
  const common = { url, headers, connections, pipelining: 1, timeout: 10, ...(verifyBody ? { verifyBody } : {}) };
  await autocannon({ ...common, duration: warmup });
  const cpu = cpuSince({ ...pids, autocannon: process.pid });
  const r = await autocannon({ ...common, duration });
  const { perProcess, otherMs } = cpu();
  return {
    requestsPerSec: r.requests.average,
    requestsTotal: r.requests.total,
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    latencyMeanMs: r.latency.average,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    bytesPerSec: r.throughput.average,
    mismatches: r.mismatches ?? 0,
    cpuMsPerRequest: Object.fromEntries(Object.entries(perProcess).map(([name, ms]) => [name, +(ms / Math.max(1, r.requests.total)).toFixed(3)])),
    // share of the machine's CPU used by other processes during the run: above a few % the figures are skewed
    otherCpuShare: +(otherMs / (duration * 1000 * os.cpus().length)).toFixed(3),
  };
}

module.exports = { measure, settings };
