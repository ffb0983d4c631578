#!/usr/bin/env node
'use strict';
// `npm run bench`: what one read costs, measured with autocannon on loopback, in one run:
//   (a) express answering a fixed ~1.5 KB organization object,
//   (b) express making one unary gRPC call per request to an echo server in another process,
//   (c) Bindery's authenticated GET /v1/orgs/{orgId} (gateway → identity → MongoDB),
//   (d) Bindery's GET /v1/spaces/{spaceId} of a space of BENCH_SPACE_PAGES pages,
//   (e) Bindery's GET /v1/spaces/{spaceId}/content/page/{pageId} in that space,
//   (f) Bindery's GET /v1/orgs/{orgId}/members?limit=50 in an organization of BENCH_MEMBERS members.
// Bindery is started by the end-to-end tests' launcher (bindery.js): every service and the gateway.
// Targets are started and checked first, then measured one after another, never concurrently.
// Settings (environment): BENCH_DURATION (s, 10), BENCH_WARMUP (s, 2), BENCH_CONNECTIONS (20),
// BENCH_TARGETS (express,relay,bindery,space,page,members: which, in which order),
// BENCH_SPACE_PAGES (20), BENCH_MEMBERS (50), BENCH_SMOKE (1: a second per target, few pages and
// members; smoke.js); for investigations BENCH_LOG_LEVEL (warn), BENCH_TELEMETRY (1; 0 runs Bindery
// without the OpenTelemetry preload), BENCH_AUTH_CACHE_TTL_MS (the gateway's default, 5000),
// BENCH_PAYLOAD_BYTES (1500), BENCH_NODE_ARGS, BENCH_OUTPUT (results file name, latest.json).
const fs = require('node:fs');
const path = require('node:path');
const { startTarget } = require('./targets');
const { startBindery } = require('./bindery');
const { spaceWithPages, organizationWithMembers } = require('./fixtures');
const { applySmoke } = require('./smoke');
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
const BINDERY_TARGETS = ['bindery', 'space', 'page', 'members'];
const MEMBERS_LIMIT = 50;

function count(name, fallback) {
  const value = Number(process.env[name] || fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}

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
  if (wanted.some((id) => BINDERY_TARGETS.includes(id))) {
    const b = await startBindery({ log, cleanup, ...options });
    const headers = { authorization: `Bearer ${b.token}` };
    const add = (id, label, route, check) => targets.push({ id, label, url: b.baseUrl + route, headers, pids: b.pids, check });
    if (wanted.includes('bindery')) add('bindery', '(c) Bindery GET /v1/orgs/{id}', b.route);
    if (wanted.includes('space') || wanted.includes('page')) {
      const pages = count('BENCH_SPACE_PAGES', 20);
      const { spaceId, pageId } = await spaceWithPages(b, pages);
      log(`space ${spaceId}: ${pages} pages`);
      if (wanted.includes('space')) add('space', `(d) Bindery GET /v1/spaces/{id}, ${pages} pages`, `/v1/spaces/${spaceId}`);
      if (wanted.includes('page')) add('page', '(e) Bindery GET …/content/page/{pageId}', `/v1/spaces/${spaceId}/content/page/${pageId}`);
    }
    if (wanted.includes('members')) {
      const members = count('BENCH_MEMBERS', 50);
      const orgId = await organizationWithMembers(b, members);
      log(`organization ${orgId}: ${members} members`);
      const items = Math.min(MEMBERS_LIMIT, members);
      add('members', `(f) Bindery GET …/members?limit=${MEMBERS_LIMIT}, ${members} members`, `/v1/orgs/${orgId}/members?limit=${MEMBERS_LIMIT}`, (json) =>
        json.count === members && json.items.length === items ? undefined : `count ${json.count} and ${json.items.length} items, expected ${members} and ${items}`,
      );
    }
  }
  return targets.sort((x, y) => wanted.indexOf(x.id) - wanted.indexOf(y.id)); // measured in the order asked
}

/** Every target must answer 200 with a JSON body before anything is measured. */
async function verify(target) {
  const res = await fetch(target.url, { headers: target.headers });
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`${target.label}: ${res.status} ${body.toString('utf8').slice(0, 300)}`);
  const problem = target.check?.(JSON.parse(body.toString('utf8')));
  if (problem) throw new Error(`${target.label}: ${problem}`);
  return body.length;
}

async function main() {
  applySmoke('bench');
  const config = settings();
  const wanted = (process.env.BENCH_TARGETS || ['express', 'relay', ...BINDERY_TARGETS].join(',')).split(',').map((s) => s.trim());
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
    await verify(target); // the same answer after the load
  }

  const ratios = report.ratios(results);
  console.log(`\n${report.table(results)}\n\n${report.ratioLines(ratios)}\n\n${report.readLines(results)}\n\n${report.cpuLines(results)}\n`);
  if (results.some((r) => r.non2xx || r.errors || r.timeouts)) {
    process.exitCode = 1;
    console.error('[bench] some requests failed: the figures are not valid');
  }
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
