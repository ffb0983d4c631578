'use strict';
// Brings up what the system needs: the infrastructure (unless MONGODB_URL / KAFKA_BROKERS point
// elsewhere), then the services that are not running already. Used by `npm start` and by the test runner.
const fs = require('node:fs');
const path = require('node:path');
const mongod = require('./mongod');
const kafka = require('./kafka');
const { root, runDir } = require('./paths');
const { services, buildOf, settingsOf } = require('./services');
const { startDetached, runningState, runningPid, portFree, waitFor, stop } = require('./processes');
const { healthOf } = require('./health');
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
 * Starts what is missing of the services named (all when none): each piece is kept, started or
 * restarted as `decide` (start-plan.js) says. The gRPC services start side by side, the gateway after.
 * The apps are built first when their sources changed.
 */
async function startServices(infra, log = () => {}, { only = [] } = {}) {
  const wanted = select(only);
  return withStackLock(async () => {
    if (await buildIfChanged()) log('apps built (their sources changed)');
    const outcomes = await Promise.allSettled(wanted.filter((s) => s.kind === 'grpc').map((s) => ensureRunning(s, infra, log)));
    const failed = outcomes.find((o) => o.status === 'rejected');
    if (failed) throw failed.reason;
    for (const service of wanted.filter((s) => s.kind !== 'grpc')) await ensureRunning(service, infra, log);
  });
}

async function ensureRunning(service, infra, log) {
  const port = service.readyPort();
  const build = buildOf(service);
  const settings = settingsOf(service, infra);
  const running = runningState(service.name);
  const health = running ? await healthOf(service, port) : undefined;
  const { action, reason } = decide({ running, health, port, build, settings });
  if (action === 'keep') {
    log(`${service.name} ${reason} (pid ${running.pid}, port ${port})`);
    return;
  }
  if (action === 'restart') {
    log(`${service.name}: restarting (${reason})`);
    await stop(service.name);
  }
  if (!(await portFree(port))) throw new Error(`port ${port} for ${service.name} is taken by another process; stop it or set ${service.portVariable}`);
  const { pid, logPath } = startDetached(
    service.name,
    process.execPath,
    ['--enable-source-maps', '--require', path.join(root, 'dist/apps/telemetry.js'), path.join(root, service.entry)],
    { env: { ...service.env(infra), BINDERY_SERVICE_NAME: service.name }, marker: service.entry, record: { port, build, settings } },
  );
  await waitFor(async () => (await healthOf(service, port, { timeoutMs: 500 })) === 'serving', { timeoutMs: 60000, what: service.name, pid, logPath });
  log(`${service.name} ${action === 'start' ? 'started' : 'restarted'} on port ${port} (log: ${path.relative(root, logPath)})`);
}

/** Stops the pieces named (services, `kafka`, `mongod`), or everything (infrastructure unless kept): callers first. */
async function stopAll({ infra = true, only = [] } = {}) {
  const order = [...services.map((s) => s.name).reverse(), 'kafka', 'mongod'];
  const unknown = only.filter((n) => !order.includes(n));
  if (unknown.length) throw new Error(`nothing named ${unknown.join(', ')}; the pieces are ${order.join(', ')}`);
  const names = only.length ? order.filter((n) => only.includes(n)) : order.filter((n) => infra || !['kafka', 'mongod'].includes(n));
  for (const name of names) {
    const t0 = Date.now();
    if (await stop(name)) console.log(`stopped ${name} (${Date.now() - t0} ms)`);
  }
}

function status() {
  return ['mongod', 'kafka', ...services.map((s) => s.name)].map((name) => ({ name, pid: runningPid(name) }));
}

module.exports = { ensureInfra, startServices, stopAll, status };
