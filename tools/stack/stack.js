'use strict';
// Brings up what the system needs: the infrastructure (unless MONGODB_URL / KAFKA_BROKERS point
// elsewhere), then every service. Used by `npm start` and by the test runner.
const fs = require('node:fs');
const path = require('node:path');
const mongod = require('./mongod');
const kafka = require('./kafka');
const { root, runDir } = require('./paths');
const { services } = require('./services');
const { startDetached, runningPid, portOpen, waitFor, stop } = require('./processes');
const { buildApps } = require('../build/build-apps');

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

async function startServices(infra, log = () => {}) {
  await buildApps();
  // Callers first (the gateway holds channels to the services), so each stops without waiting on them.
  for (const service of [...services].reverse()) await stop(service.name);
  for (const service of services) {
    const port = service.readyPort();
    if (await portOpen(port)) throw new Error(`port ${port} for ${service.name} is taken by another process`);
    const { pid, logPath } = startDetached(
      service.name,
      process.execPath,
      ['--enable-source-maps', '--require', path.join(root, 'dist/apps/telemetry.js'), path.join(root, service.entry)],
      { env: { ...service.env(infra), BINDERY_SERVICE_NAME: service.name } },
    );
    await waitFor(() => portOpen(port), { timeoutMs: 30000, what: service.name, pid, logPath });
    log(`${service.name} ready on port ${port} (log: ${path.relative(root, logPath)})`);
  }
}

async function stopAll({ infra = true } = {}) {
  const names = [...services.map((s) => s.name).reverse(), ...(infra ? ['kafka', 'mongod'] : [])];
  for (const name of names) {
    if (await stop(name)) console.log(`stopped ${name}`);
  }
}

function status() {
  return ['mongod', 'kafka', ...services.map((s) => s.name)].map((name) => ({ name, pid: runningPid(name) }));
}

module.exports = { ensureInfra, startServices, stopAll, status };
