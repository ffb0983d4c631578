'use strict';
// Starts a private Bindery (identity + gateway from dist/apps) the way the end-to-end tests do:
// fresh ports, database and Kafka namespace, on the shared local infrastructure. Then makes the
// fixtures: a user, an API token for them and an organization they own.
const net = require('node:net');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const { spawn } = require('node:child_process');
const { ensureInfra } = require('../stack/stack');
const { buildApps } = require('../build/build-apps');
const processes = require('../stack/processes');

const root = path.resolve(__dirname, '..', '..');
const INFRA = ['mongod', 'kafka'];

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** A child process whose last output lines are kept for error messages. */
function startApp(name, port, env, { telemetry }) {
  const entry = path.join(root, 'dist/apps', name, 'main.js');
  // BENCH_NODE_ARGS: extra node flags for Bindery's apps (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
  const extra = (process.env.BENCH_NODE_ARGS || '').split(' ').filter(Boolean);
  const args = [...extra, ...(telemetry ? ['--require', path.join(root, 'dist/apps/telemetry.js')] : []), entry];
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env, BINDERY_SERVICE_NAME: name }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = [];
  const keep = (chunk) => {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    lines.splice(0, Math.max(0, lines.length - 30));
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const app = {
    name,
    pid: child.pid,
    output: () => lines.join('\n'),
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
  const ready = processes
    .waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
        return processes.portOpen(port);
      },
      { timeoutMs: 30000, what: name },
    )
    .catch((err) => {
      throw new Error(`${err.message}; its last output:\n${app.output()}`);
    });
  return { app, ready };
}

async function dropDatabase(url, name) {
  const { MongoClient } = require('mongodb');
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
  try {
    await client.db(name).dropDatabase();
  } finally {
    await client.close();
  }
}

async function call(baseUrl, method, route, token, body) {
  const res = await fetch(baseUrl + route, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`${method} ${route}: ${res.status} ${text}`);
  return JSON.parse(text);
}

/**
 * Infrastructure first (recording what already ran), then identity and gateway, then fixtures.
 * Resolves with { baseUrl, route, token, env, pids }. Undoing stops the apps, drops the bench
 * database, and stops the infrastructure only if this call started it. Each undo step is pushed
 * onto `cleanup` (a stack the caller pops) as soon as there is something to undo, so a failure
 * part-way leaves nothing behind.
 */
async function startBindery({ log = () => {}, logLevel = 'warn', telemetry = true, authCacheTtlMs, cleanup }) {
  const infraBefore = Object.fromEntries(INFRA.map((name) => [name, processes.runningPid(name)]));
  const stopInfra = async () => {
    for (const name of [...INFRA].reverse()) {
      if (!infraBefore[name] && (await processes.stop(name))) log(`stopped ${name} (it was not running before the benchmark)`);
    }
  };
  cleanup.push(stopInfra);
  const infra = await ensureInfra(log);
  await buildApps();

  const run = randomBytes(4).toString('hex');
  const identityPort = await freePort();
  const gatewayPort = await freePort();
  const adminToken = `bench-admin-${randomBytes(24).toString('hex')}`;
  const env = {
    MONGODB_URL: infra.mongoUrl,
    KAFKA_BROKERS: infra.kafkaBrokers,
    KAFKA_NAMESPACE: `bench${run}.`,
    IDENTITY_DB: `bench_identity_${run}`,
    IDENTITY_GRPC_PORT: String(identityPort),
    IDENTITY_GRPC_URL: `127.0.0.1:${identityPort}`,
    PORT: String(gatewayPort),
    BINDERY_ADMIN_TOKEN: adminToken,
    LOG_LEVEL: logLevel,
    ...(authCacheTtlMs !== undefined ? { AUTH_CACHE_TTL_MS: String(authCacheTtlMs) } : {}),
  };
  cleanup.push(() => dropDatabase(infra.mongoUrl, env.IDENTITY_DB).catch((err) => log(`could not drop ${env.IDENTITY_DB}: ${err.message}`)));
  const pids = { gateway: undefined, identity: undefined, mongod: processes.runningPid('mongod'), kafka: processes.runningPid('kafka') };
  for (const name of ['identity', 'gateway']) {
    const { app, ready } = startApp(name, name === 'identity' ? identityPort : gatewayPort, env, { telemetry });
    cleanup.push(app.stop);
    pids[name] = app.pid;
    await ready;
    log(`${name} listening (pid ${app.pid})`);
  }

  const baseUrl = `http://127.0.0.1:${gatewayPort}`;
  await processes.waitFor(async () => (await fetch(`${baseUrl}/readyz`).catch(() => ({ ok: false }))).ok, { timeoutMs: 30000, what: 'gateway /readyz' });
  const user = await call(baseUrl, 'POST', '/admin/users', adminToken, { email: 'bench@example.com', displayName: 'Bench' });
  const { token } = await call(baseUrl, 'POST', `/admin/users/${user.id}/tokens`, adminToken, {});
  const org = await call(baseUrl, 'POST', '/v1/orgs', token, { title: 'Bench org' });
  return { baseUrl, route: `/v1/orgs/${org.id}`, token, env, pids };
}

module.exports = { startBindery, freePort };
