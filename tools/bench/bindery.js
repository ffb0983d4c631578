'use strict';
// Starts a private Bindery with the launcher of the end-to-end tests (libs/shared/testing's
// startSystem, bundled from system.ts): every app in apps/*/service.json from dist/apps, on fresh ports,
// databases and Kafka namespace, on the shared local infrastructure, with the apps' own timings (not
// the tests' short ones). Then makes the fixtures: a user, an API token for them and an organization
// they own. A service added to the manifests is started here too, with nothing to change.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const { ensureInfra } = require('../stack/stack');
const { buildApps } = require('../build/build-apps');
const processes = require('../stack/processes');
const { bundle } = require('./bundled');
const { pidListening } = require('./cpu');

const INFRA = ['mongod', 'kafka'];

/** A JSON call through the gateway; anything but the status expected is an error. */
function client(baseUrl, token) {
  return async (method, route, body, expected = method === 'POST' ? [200, 201, 204] : [200]) => {
    const res = await fetch(baseUrl + route, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!expected.includes(res.status)) throw new Error(`${method} ${route}: ${res.status} ${text.slice(0, 300)}`);
    return { json: text ? JSON.parse(text) : undefined, bytes: Buffer.byteLength(text) };
  };
}

/** The port of a host:port list's first address, or of a URL. */
function portOf(address) {
  const first = address.replace(/^[a-z]+:\/\//, '').split(/[,/?]/)[0];
  return Number(first.split(':').pop());
}

/** Waits until the gateway's /readyz answers 200; otherwise fails with its last answer (which names what is not ready). */
async function gatewayReady(baseUrl, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${baseUrl}/readyz`).catch((err) => ({ ok: false, status: err.message, text: async () => '' }));
    if (res.ok) return;
    if (Date.now() > deadline) throw new Error(`gateway /readyz did not answer 200 within ${timeoutMs} ms: ${res.status} ${(await res.text()).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Infrastructure first (recording what already ran), then the whole system, then fixtures.
 * Resolves with { baseUrl, token, organizationId, route, admin, call, as, env, pids, sut }: `admin` and
 * `call` are JSON clients as the instance administrator and as the bench user, `as(token)` one as
 * anyone; `pids` names every app's
 * process, mongod's and Kafka's (when this user may see them), for the CPU figures. Undoing stops the
 * apps, drops their databases, and stops the infrastructure only if this call started it. Each undo
 * step is pushed onto `cleanup` (a stack the caller pops) as soon as there is something to undo, so a
 * failure part-way leaves nothing behind.
 */
async function startBindery({ log = () => {}, logLevel = 'warn', telemetry = true, authCacheTtlMs, cleanup }) {
  const infraBefore = Object.fromEntries(INFRA.map((name) => [name, processes.runningPid(name)]));
  cleanup.push(async () => {
    for (const name of [...INFRA].reverse()) {
      if (!infraBefore[name] && (await processes.stop(name))) log(`stopped ${name} (it was not running before the benchmark)`);
    }
  });
  const infra = await ensureInfra(log);
  // BENCH_APPS_BUILT=1: the caller has just built dist/apps (the smoke test, once for every bench).
  if (process.env.BENCH_APPS_BUILT !== '1') await buildApps();
  const { startSystem } = require(await bundle(path.join(__dirname, 'system.ts'), 'system'));

  // The launcher reads the infrastructure from the test variables and names databases and its pid
  // folder after the run.
  const run = `bench${randomBytes(4).toString('hex')}`;
  Object.assign(process.env, { BINDERY_TEST_MONGODB_URL: infra.mongoUrl, BINDERY_TEST_KAFKA_BROKERS: infra.kafkaBrokers, BINDERY_TEST_RUN: run });
  cleanup.push(() => fs.rmSync(path.join(os.tmpdir(), `bindery-test-${run}`), { recursive: true, force: true }));
  // BENCH_NODE_ARGS: extra node flags for Bindery's apps (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
  const nodeArgs = (process.env.BENCH_NODE_ARGS || '').split(' ').filter(Boolean);
  // The OpenTelemetry settings of this environment reach the apps, to be tried the same way.
  const otel = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('OTEL_')));
  const settings = { ...otel, LOG_LEVEL: logLevel, ...(authCacheTtlMs !== undefined ? { AUTH_CACHE_TTL_MS: String(authCacheTtlMs) } : {}) };
  // One process per app: CPU time and memory are reported per app. BENCH_MONOLITH=1: every app in one
  // process (apps/bindery), as `npm start` runs them; its CPU is then reported under each app's name.
  const split = process.env.BENCH_MONOLITH !== '1';
  const sut = await startSystem(settings, { appDefaults: true, launch: { nodeArgs, telemetry }, split });
  cleanup.push(() => sut.stop());
  log(`started ${Object.keys(sut.apps).join(', ')}`);

  const pids = Object.fromEntries(Object.entries(sut.apps).map(([name, app]) => [name, app.child.pid]));
  for (const [name, address] of [
    ['mongod', infra.mongoUrl],
    ['kafka', infra.kafkaBrokers],
  ]) {
    const pid = pidListening(portOf(address));
    if (pid) pids[name] = pid;
    else log(`${name}: no process of ours listens on ${address}; its CPU time is not reported`);
  }

  const baseUrl = sut.baseUrl;
  await gatewayReady(baseUrl, 60000);
  const admin = client(baseUrl, sut.adminToken);
  const { json: user } = await admin('POST', '/admin/users', { email: `${run}@example.com`, displayName: 'Bench' });
  const {
    json: { token },
  } = await admin('POST', `/admin/users/${user.id}/tokens`, {});
  const call = client(baseUrl, token);
  const { json: org } = await call('POST', '/v1/orgs', { title: 'Bench org' });
  const as = (other) => client(baseUrl, other);
  return { baseUrl, token, organizationId: org.id, route: `/v1/orgs/${org.id}`, admin, call, as, env: sut.env, pids, sut };
}

module.exports = { startBindery };
