'use strict';
// Brings up what the system needs: the infrastructure (unless MONGODB_URL / KAFKA_BROKERS point
// elsewhere), then the services that are not running already. Used by `npm start` and by the test runner.
const fs = require('node:fs');
const path = require('node:path');
const mongod = require('./mongod');
const kafka = require('./kafka');
const { root, runDir } = require('./paths');
const { services, monolithOf, buildOf, settingsOf } = require('./services');
const { startDetached, runningState, runningPid, portFree, waitFor, stop } = require('./processes');
const { healthOf, healthOfAll } = require('./health');
const { decide } = require('./start-plan');
const { buildIfChanged } = require('../build/sources-fingerprint');

/**
 * Runs `work` holding the stack's lock, so that processes starting at once (nx running several
 * projects' tests in parallel) provision and start the infrastructure once, not each.
 */
async function withStackLock(work) {
  const lock = path.join(runDir, 'stack.lock');
  fs.mkdirSync(runDir, { recursive: true });
  const deadline = Date.now() + 180000;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      // A lock older than the longest provisioning is left over from a killed process.
      const age = Date.now() - fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
      if (age > 180000) fs.rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`the local stack is locked by another process (${lock})`);
      else await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    return await work();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

async function ensureInfra(log = () => {}) {
  return withStackLock(async () => {
    const [mongoUrl, kafkaBrokers] = await Promise.all([process.env.MONGODB_URL || mongod.start(log), process.env.KAFKA_BROKERS || kafka.start(log)]);
    return { mongoUrl, kafkaBrokers };
  });
}

/** The services named (all when none), checked against the manifests. */
function select(names = []) {
  const unknown = names.filter((n) => !services.some((s) => s.name === n));
  if (unknown.length) throw new Error(`no service named ${unknown.join(', ')}; the services are ${services.map((s) => s.name).join(', ')}`);
  return names.length ? services.filter((s) => names.includes(s.name)) : services;
}

/**
 * Starts what is missing of the apps named (all when none): by default in one process, the monolith
 * (apps/bindery), hosting exactly those apps; with `split`, each app in its own process. Each process
 * is kept, started or restarted as `decide` (start-plan.js) says; the processes of the other mode are
 * stopped first (they hold the same ports). In split mode the gRPC services start side by side, the
 * gateway after. The apps are built first when their sources changed.
 */
async function startServices(infra, log = () => {}, { only = [], split = false } = {}) {
  const wanted = select(only);
  return withStackLock(async () => {
    if (await buildIfChanged()) log('apps built (their sources changed)');
    if (!split) {
      for (const piece of services) if (await stop(piece.name)) log(`stopped ${piece.name} (the monolith hosts it now)`);
      await ensureRunning(monolithOf(wanted.map((s) => s.name)), infra, log);
      return;
    }
    if (await stop(MONOLITH)) log(`stopped the monolith (${MONOLITH}): each app runs in its own process now`);
    const outcomes = await Promise.allSettled(wanted.filter((s) => s.kind === 'grpc').map((s) => ensureRunning(s, infra, log)));
    const failed = outcomes.find((o) => o.status === 'rejected');
    if (failed) throw failed.reason;
    for (const service of wanted.filter((s) => s.kind !== 'grpc')) await ensureRunning(service, infra, log);
  });
}

/** The name of the monolith's process (its pid file, its log). */
const MONOLITH = 'bindery';

/** A piece's health: one app's, or the monolith's (every app it hosts serving). */
function healthOfPiece(piece, port, options) {
  return piece.hosted
    ? healthOfAll(
        piece.hosted.map((s) => [s, s.readyPort()]),
        options,
      )
    : healthOf(piece, port, options);
}

async function ensureRunning(service, infra, log) {
  const port = service.readyPort();
  const build = buildOf(service);
  const settings = settingsOf(service, infra);
  const running = runningState(service.name);
  const health = running ? await healthOfPiece(service, port) : undefined;
  const { action, reason } = decide({ running, health, port, build, settings });
  const what = service.hosted ? `${service.name} (${service.hosted.map((s) => s.name).join(', ')})` : service.name;
  if (action === 'keep') {
    log(`${what} ${reason} (pid ${running.pid}, port ${port})`);
    return;
  }
  if (action === 'restart') {
    log(`${what}: restarting (${reason})`);
    await stop(service.name);
  }
  for (const piece of service.hosted ?? [service]) {
    const p = piece.readyPort();
    if (!(await portFree(p))) throw new Error(`port ${p} for ${piece.name} is taken by another process; stop it or set ${piece.portVariable}`);
  }
  const t0 = Date.now();
  const { pid, logPath } = startDetached(
    service.name,
    process.execPath,
    ['--enable-source-maps', '--require', path.join(root, 'dist/apps/telemetry.js'), path.join(root, service.entry)],
    { env: { ...service.env(infra), BINDERY_SERVICE_NAME: service.name }, marker: service.entry, record: { port, build, settings } },
  );
  await waitFor(async () => (await healthOfPiece(service, port, { timeoutMs: 500 })) === 'serving', { timeoutMs: 60000, what: service.name, pid, logPath });
  log(`${what} ${action === 'start' ? 'started' : 'restarted'} on port ${port} in ${Date.now() - t0} ms (log: ${path.relative(root, logPath)})`);
}

/**
 * Stops the pieces named (apps, `bindery`, `kafka`, `mongod`), or everything (infrastructure unless
 * kept): callers first. One app alone cannot be stopped while the monolith hosts it: that is refused.
 */
async function stopAll({ infra = true, only = [] } = {}) {
  const order = [MONOLITH, ...services.map((s) => s.name).reverse(), 'kafka', 'mongod'];
  const unknown = only.filter((n) => !order.includes(n));
  if (unknown.length) throw new Error(`nothing named ${unknown.join(', ')}; the pieces are ${order.join(', ')}`);
  const apps = only.filter((n) => services.some((s) => s.name === n));
  const monolith = runningPid(MONOLITH);
  if (apps.length && monolith) {
    throw new Error(
      `${apps.join(', ')} run${apps.length === 1 ? 's' : ''} inside the monolith (${MONOLITH}, pid ${monolith}) with the other apps: ` +
        `npm stop stops everything, npm stop -- ${MONOLITH} the apps only; npm start -- <app>… runs the monolith with only those apps, npm start -- --split one process per app`,
    );
  }
  const names = only.length ? order.filter((n) => only.includes(n)) : order.filter((n) => infra || !['kafka', 'mongod'].includes(n));
  for (const name of names) {
    const t0 = Date.now();
    if (await stop(name)) console.log(`stopped ${name} (${Date.now() - t0} ms)`);
  }
}

function status() {
  return ['mongod', 'kafka', MONOLITH, ...services.map((s) => s.name)].map((name) => ({ name, pid: runningPid(name) }));
}

module.exports = { ensureInfra, startServices, stopAll, status };
