#!/usr/bin/env node
'use strict';
// `npm run bench`: the same ~1.5 KB organization read, measured with autocannon on loopback,
//   (a) express answering a fixed object,
//   (b) express making one unary gRPC call per request to an echo server in another process,
//   (c) Bindery's authenticated GET /v1/orgs/{orgId} (gateway → identity → MongoDB).
// Targets are started and checked first, then measured one after another, never concurrently.
// Settings (environment): BENCH_DURATION (s, 10), BENCH_WARMUP (s, 2), BENCH_CONNECTIONS (20),
// BENCH_TARGETS (express,relay,bindery: which, in which order); for investigations
// BENCH_LOG_LEVEL (warn), BENCH_TELEMETRY (1; 0 runs Bindery without the OpenTelemetry preload),
// BENCH_AUTH_CACHE_TTL_MS (the gateway's default, 5000), BENCH_PAYLOAD_BYTES (1500),
// BENCH_OUTPUT (results file name, latest.json).
const fs = require('node:fs');
const path = require('node:path');
const { startTarget } = require('./targets');
const { startBindery } = require('./bindery');
const { measure, settings } = require('./measure');
const report = require('./report');

const log = (msg) => console.log(`[bench] ${msg}`);
const cleanup = []; // undo steps, run last-in first-out
let cleaning;
function runCleanup() {
  cleaning ??= (async () => {
    while (cleanup.length) {
      try {
        await cleanup.pop()();
      } catch (err) {
        console.error(`[bench] cleanup: ${err.message}`);
      }
    }
  })();
  return cleaning;
}

const ORG_ROUTE = '/v1/orgs/benchorg1a2b3c4d5e6f7g8h';

async function startTargets(wanted, options) {
  const targets = [];
  if (wanted.includes('express')) {
    const t = await startTarget('express');
    cleanup.push(t.stop);
    targets.push({ id: 'express', label: '(a) express, fixed JSON', url: `http://127.0.0.1:${t.port}${ORG_ROUTE}`, pids: { express: t.pid } });
  }
  if (wanted.includes('relay')) {
    const echo = await startTarget('echo');
    cleanup.push(echo.stop);
    const t = await startTarget('relay', [`127.0.0.1:${echo.port}`]);
    cleanup.push(t.stop);
    targets.push({ id: 'relay', label: '(b) express → gRPC echo', url: `http://127.0.0.1:${t.port}${ORG_ROUTE}`, pids: { express: t.pid, echo: echo.pid } });
  }
  if (wanted.includes('bindery')) {
    const b = await startBindery({ log, cleanup, ...options });
    targets.push({ id: 'bindery', label: '(c) Bindery GET /v1/orgs/{id}', url: b.baseUrl + b.route, headers: { authorization: `Bearer ${b.token}` }, pids: b.pids });
  }
  return targets.sort((x, y) => wanted.indexOf(x.id) - wanted.indexOf(y.id)); // measured in the order asked
}

/** Every target must answer 200 with a JSON body before anything is measured. */
async function verify(target) {
  const res = await fetch(target.url, { headers: target.headers });
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`${target.label}: ${res.status} ${body.toString('utf8').slice(0, 300)}`);
  JSON.parse(body.toString('utf8'));
  return body.length;
}

async function main() {
  const config = settings();
  const wanted = (process.env.BENCH_TARGETS || 'express,relay,bindery').split(',').map((s) => s.trim());
  const options = {
    logLevel: process.env.BENCH_LOG_LEVEL || 'warn',
    telemetry: process.env.BENCH_TELEMETRY !== '0',
    authCacheTtlMs: process.env.BENCH_AUTH_CACHE_TTL_MS,
  };
  log(
    `${config.connections} connections, ${config.warmup} s warm-up + ${config.duration} s per target; Bindery: LOG_LEVEL=${options.logLevel}, telemetry ${options.telemetry ? 'on' : 'off'}${options.authCacheTtlMs !== undefined ? `, AUTH_CACHE_TTL_MS=${options.authCacheTtlMs}` : ''}`,
  );

  const targets = await startTargets(wanted, options);
  for (const target of targets) {
    target.bodyBytes = await verify(target);
    log(`${target.label}: 200, body ${target.bodyBytes} bytes`);
  }

  const results = [];
  for (const target of targets) {
    log(`measuring ${target.label} …`);
    const figures = await measure(target, config);
    results.push({ id: target.id, label: target.label, bodyBytes: target.bodyBytes, ...figures });
  }

  const ratios = report.ratios(results);
  console.log(`\n${report.table(results)}\n\n${report.ratioLines(ratios)}\n\n${report.cpuLines(results)}\n`);
  if (wanted.includes('bindery'))
    console.log('Bindery caches token lookups for AUTH_CACHE_TTL_MS (5 s by default): in steady state each request is one gRPC call (GetOrganization).\n');

  const out = path.join(__dirname, 'results', process.env.BENCH_OUTPUT || 'latest.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), machine: report.machine(), settings: { ...config, bindery: options }, results, ratios }, null, 2) + '\n');
  log(`wrote ${path.relative(process.cwd(), out)}`);
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    log(`${signal}: stopping what the benchmark started`);
    runCleanup().finally(() => process.exit(130));
  });
}

main().then(runCleanup, async (err) => {
  console.error(`[bench] ${err.stack || err.message}`);
  await runCleanup();
  process.exitCode = 1;
});
