#!/usr/bin/env node
'use strict';
// Measures how the local stack starts and stops (figures in docs/local-stack.md):
//   starts   `npm start` N times from stopped (services and infrastructure): failures and times;
//   kill     for each gRPC service: kill -9 it, then `npm start`, while a loop of requests hits the
//            gateway (/healthz, /readyz, GET /v1/user): refused connections, statuses, time until
//            /readyz answers 200 again;
//   sigterm  for every app: SIGTERM → exit (ms), then `npm start -- <app>` brings it back.
// Usage: node tools/stack/probe-restarts.js [--starts N] [--only starts,kill,sigterm]
// It uses this checkout's stack (PORT, *_GRPC_PORT, BINDERY_LOCAL_* as for npm start), stops it first
// and leaves it running, split (one process per app: `npm start -- --split`), since it kills and
// stops one app at a time.
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const crypto = require('node:crypto');
const { spawn } = require('node:child_process');
const { cacheDir, root } = require('./paths');
const { services } = require('./services');
const { runningState, isAlive } = require('./processes');

const cli = path.join(__dirname, 'cli.js');
const gatewayPort = Number(process.env.PORT || 8080);
const log = (msg) => console.log(`[probe] ${msg}`);

/** The instance administrator's token for this stack's probes (kept, so a later run still matches it). */
function adminToken() {
  if (process.env.BINDERY_ADMIN_TOKEN) return process.env.BINDERY_ADMIN_TOKEN;
  const file = path.join(cacheDir, 'probe-admin-token');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(cacheDir, { recursive: true });
    fs.writeFileSync(file, crypto.randomBytes(24).toString('hex'), { mode: 0o600 });
  }
  return fs.readFileSync(file, 'utf8').trim();
}
const token = adminToken();

/** Runs cli.js with `args` (a start split); answers its exit code, duration and output (never throws). */
function stack(...args) {
  if (args[0] === 'start') args.push('--split');
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, [cli, ...args], { cwd: root, env: { ...process.env, BINDERY_ADMIN_TOKEN: token }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.once('exit', (code) => resolve({ code, ms: Date.now() - t0, output }));
  });
}

/** One request on a fresh connection: its status, or the error code (ECONNREFUSED, ECONNRESET, …). */
function request(pathname, headers = {}) {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port: gatewayPort, path: pathname, headers, agent: false, timeout: 5000 }, (res) => {
      res.resume();
      res.once('end', () => resolve(String(res.statusCode)));
    });
    req.once('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.once('error', (err) => resolve(err.code || err.message));
  });
}

const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];

async function probeStarts(count) {
  const times = [];
  const failures = [];
  for (let i = 1; i <= count; i++) {
    const stopped = await stack('stop');
    if (stopped.code !== 0) throw new Error(`npm stop failed:\n${stopped.output}`);
    const started = await stack('start');
    const ready = started.code === 0 ? await request('/readyz') : 'not started';
    if (started.code === 0 && ready === '200') times.push(started.ms);
    else failures.push(`start ${i}: exit ${started.code}, /readyz ${ready}\n${started.output.split('\n').slice(-8).join('\n')}`);
    log(`start ${i}/${count}: ${started.code === 0 ? 'ok' : 'FAILED'} in ${(started.ms / 1000).toFixed(1)} s (/readyz ${ready})`);
  }
  for (const f of failures) log(f);
  return { count, failed: failures.length, p50Ms: percentile(times, 50), maxMs: Math.max(...times) };
}

async function probeKill(name) {
  const pid = runningState(name)?.pid;
  if (!pid) throw new Error(`${name} is not running`);
  const tally = {};
  let running = true;
  let restartedAt;
  let recoveredMs;
  const loop = (async () => {
    const calls = [() => request('/healthz'), () => request('/readyz'), () => request('/v1/user', { authorization: `Bearer ${token}` })];
    for (let i = 0; running; i++) {
      const kind = ['healthz', 'readyz', 'user'][i % 3];
      const outcome = await calls[i % 3]();
      tally[`${kind} ${outcome}`] = (tally[`${kind} ${outcome}`] ?? 0) + 1;
      if (kind === 'readyz' && outcome === '200' && restartedAt && recoveredMs === undefined) recoveredMs = Date.now() - restartedAt;
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  await new Promise((r) => setTimeout(r, 300)); // requests before the kill, as a baseline
  process.kill(pid, 'SIGKILL');
  const killedAt = Date.now();
  while (isAlive(pid)) await new Promise((r) => setTimeout(r, 5));
  restartedAt = Date.now();
  const started = await stack('start');
  const deadline = Date.now() + 30000;
  while (recoveredMs === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  running = false;
  await loop;
  const outcomes = Object.entries(tally);
  const count = (pred) => outcomes.filter(([k]) => pred(k)).reduce((n, [, v]) => n + v, 0);
  const result = {
    name,
    requests: count(() => true),
    refused: count((k) => !/ \d{3}$/.test(k)),
    startExit: started.code,
    startMs: started.ms,
    recoveredMs: recoveredMs ?? null,
    sinceKillMs: recoveredMs === undefined ? null : restartedAt - killedAt + recoveredMs,
    outcomes: tally,
  };
  log(
    `kill -9 ${name}: ${result.requests} requests, ${result.refused} not answered; npm start ${started.code === 0 ? 'ok' : 'FAILED'} in ${started.ms} ms; /readyz 200 again after ${recoveredMs} ms`,
  );
  log(`  ${outcomes.map(([k, v]) => `${k}: ${v}`).join(', ')}`);
  return result;
}

async function probeSigterm(name) {
  // Through the gateway first, so the gateway holds a connection to every service and a client holds
  // an idle keep-alive connection to the gateway while it stops.
  const agent = new http.Agent({ keepAlive: true });
  await new Promise((resolve) => http.get({ host: '127.0.0.1', port: gatewayPort, path: '/readyz', agent }, (res) => res.resume().once('end', resolve)).once('error', resolve));
  const pid = runningState(name)?.pid;
  if (!pid) throw new Error(`${name} is not running`);
  const t0 = process.hrtime.bigint();
  process.kill(pid, 'SIGTERM');
  while (isAlive(pid)) await new Promise((r) => setTimeout(r, 2));
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  agent.destroy();
  const back = await stack('start', name);
  if (back.code !== 0) throw new Error(`npm start -- ${name} failed:\n${back.output}`);
  log(`SIGTERM ${name}: exited after ${ms.toFixed(0)} ms (back in ${back.ms} ms)`);
  return { name, ms: Math.round(ms) };
}

async function main() {
  const args = process.argv.slice(2);
  const arg = (flag, fallback) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : fallback);
  const only = arg('--only', 'starts,kill,sigterm').split(',');
  const results = {};
  if (only.includes('starts')) results.starts = await probeStarts(Number(arg('--starts', 20)));
  else if ((await stack('start')).code !== 0) throw new Error('npm start failed');
  if (only.includes('kill')) {
    results.kill = [];
    for (const s of services.filter((x) => x.kind === 'grpc')) results.kill.push(await probeKill(s.name));
  }
  if (only.includes('sigterm')) {
    results.sigterm = [];
    for (const s of services) results.sigterm.push(await probeSigterm(s.name));
  }
  console.log(JSON.stringify(results, null, 2));
}

main().catch((err) => {
  console.error(`[probe] ${err.stack || err.message}`);
  process.exit(1);
});
