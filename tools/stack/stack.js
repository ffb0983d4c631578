'use strict';
// Brings up what the system needs: the infrastructure (unless MONGODB_URL / KAFKA_BROKERS point
// elsewhere), then every service. Used by `npm start` and by the test runner.
const path = require('node:path');
const ferretdb = require('./ferretdb');
const kafka = require('./kafka');
const { root } = require('./paths');
const { services } = require('./services');
const { startDetached, runningPid, portOpen, waitFor, stop } = require('./processes');
const { buildApps } = require('../build/build-apps');

async function ensureInfra(log = () => {}) {
  const [mongoUrl, kafkaBrokers] = await Promise.all([
    process.env.MONGODB_URL || ferretdb.start(log),
    process.env.KAFKA_BROKERS || kafka.start(log),
  ]);
  return { mongoUrl, kafkaBrokers };
}

async function startServices(infra, log = () => {}) {
  await buildApps();
  // Callers first (the gateway holds channels to the services), so each stops without waiting on them.
  for (const service of [...services].reverse()) await stop(service.name);
  for (const service of services) {
    const port = service.readyPort();
    if (await portOpen(port)) throw new Error(`port ${port} for ${service.name} is taken by another process`);
    const { pid, logPath } = startDetached(service.name, process.execPath, [
      '--enable-source-maps',
      '--require', path.join(root, 'dist/apps/telemetry.js'),
      path.join(root, service.entry),
    ], { env: { ...service.env(infra), BINDERY_SERVICE_NAME: service.name } });
    await waitFor(() => portOpen(port), { timeoutMs: 30000, what: service.name, pid, logPath });
    log(`${service.name} ready on port ${port} (log: ${path.relative(root, logPath)})`);
  }
}

async function stopAll({ infra = true } = {}) {
  const names = [...services.map((s) => s.name).reverse(), ...(infra ? ['kafka', 'ferretdb'] : [])];
  for (const name of names) {
    if (await stop(name)) console.log(`stopped ${name}`);
  }
}

function status() {
  return ['ferretdb', 'kafka', ...services.map((s) => s.name)].map((name) => ({ name, pid: runningPid(name) }));
}

module.exports = { ensureInfra, startServices, stopAll, status };
