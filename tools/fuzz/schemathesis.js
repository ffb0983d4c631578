#!/usr/bin/env node
'use strict';
// `npm run fuzz`: Schemathesis against a private Bindery (every service and the gateway on free ports,
// fresh databases and a Kafka namespace on the local MongoDB and Kafka, which are started if they are not
// running), with every check, as the instance administrator, who owns one organization so there
// is data. The served /openapi.json is what is fuzzed.
//
//   npm run fuzz                      # 50 examples per operation and phase, every check
//   FUZZ_MAX_EXAMPLES=200 FUZZ_SEED=1 npm run fuzz -- --include-path-regex teams
//   FUZZ_URL=http://127.0.0.1:8080 BINDERY_ADMIN_TOKEN=… npm run fuzz   # a Bindery already running
//
// Arguments after `--` go to `schemathesis run`. Schemathesis (pinned below) is installed with pip
// into a virtual environment under .cache/fuzz (git-ignored); reports go to .cache/fuzz/report.
// The exit code is Schemathesis's (non-zero when a check failed).
const { spawn, spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const SCHEMATHESIS_VERSION = '4.32.5';
const root = path.resolve(__dirname, '..', '..');
const fuzzDir = path.join(root, '.cache', 'fuzz');
const venv = path.join(fuzzDir, 'venv');
const bin = (name) => path.join(venv, 'bin', name);
const log = (msg) => console.log(`[fuzz] ${msg}`);

/** The pinned Schemathesis in .cache/fuzz/venv, installed when missing or another version. */
function ensureSchemathesis() {
  const installed = fs.existsSync(bin('schemathesis')) && spawnSync(bin('schemathesis'), ['--version'], { encoding: 'utf8' }).stdout?.includes(SCHEMATHESIS_VERSION);
  if (installed) return;
  const python = ['python3.11', 'python3'].find((p) => spawnSync(p, ['--version']).status === 0);
  if (!python) throw new Error('Python 3 (3.11 preferred) is needed to run Schemathesis');
  if (!fs.existsSync(bin('pip'))) {
    log(`creating a virtual environment in ${path.relative(root, venv)} (${python})`);
    run(python, ['-m', 'venv', venv]);
  }
  log(`installing schemathesis==${SCHEMATHESIS_VERSION} from PyPI`);
  run(bin('pip'), ['install', '--quiet', '--disable-pip-version-check', `schemathesis==${SCHEMATHESIS_VERSION}`]);
}

function run(command, args) {
  const r = spawnSync(command, args, { stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.status ?? r.signal})`);
}

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

async function waitUntil(what, check, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} did not come up within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Runs a built app with the telemetry preload, its output in .cache/fuzz/logs/<name>.log. */
function startApp(name, env) {
  const logs = path.join(fuzzDir, 'logs');
  fs.mkdirSync(logs, { recursive: true });
  const out = fs.openSync(path.join(logs, `${name}.log`), 'w');
  const child = spawn(process.execPath, ['--enable-source-maps', '--require', path.join(root, 'dist/apps/telemetry.js'), path.join(root, `dist/apps/${name}/main.js`)], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env, BINDERY_SERVICE_NAME: name },
    stdio: ['ignore', out, out],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    name,
    exited: () => child.exitCode !== null || child.signalCode !== null,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

async function api(base, token, method, urlPath, body) {
  const res = await fetch(base + urlPath, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${urlPath}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Every gRPC service of the manifests and the gateway on free ports, each on a database and Kafka namespace of its own. */
async function startPrivateBindery(token) {
  const { buildApps } = require('../build/build-apps');
  const { ensureInfra } = require('../stack/stack');
  const { grpcServices, envPrefix } = require('../stack/manifests');
  await buildApps();
  const infra = await ensureInfra(log);
  const run = crypto.randomBytes(4).toString('hex');
  const services = grpcServices();
  const env = {
    MONGODB_URL: infra.mongoUrl,
    KAFKA_BROKERS: infra.kafkaBrokers,
    KAFKA_NAMESPACE: `fuzz${run}.`,
    PORT: String(await freePort()),
    BINDERY_ADMIN_TOKEN: token,
    BINDERY_INTERNAL_SECRET: crypto.randomBytes(32).toString('hex'),
  };
  const ports = {};
  const databases = [];
  for (const m of services) {
    const prefix = envPrefix(m.name);
    ports[m.name] = await freePort();
    env[`${prefix}_DB`] = `fuzz_${m.name.replace(/-/g, '_')}_${run}`;
    env[`${prefix}_GRPC_PORT`] = String(ports[m.name]);
    env[`${prefix}_GRPC_URL`] = `127.0.0.1:${ports[m.name]}`;
    databases.push(env[`${prefix}_DB`]);
  }
  const base = `http://127.0.0.1:${env.PORT}`;
  const apps = [];
  const stop = async () => {
    for (const app of apps.reverse()) await app.stop();
    for (const db of databases) await dropDatabase(env.MONGODB_URL, db);
  };
  try {
    for (const m of services) {
      apps.push(startApp(m.name, env));
      await waitUntil(m.name, () => portOpen(ports[m.name]));
    }
    apps.push(startApp('gateway', env));
    await waitUntil('the gateway', async () => (await fetch(`${base}/readyz`)).status === 200);
  } catch (err) {
    await stop();
    throw new Error(`${err.message} (logs: ${path.relative(root, path.join(fuzzDir, 'logs'))})`);
  }
  log(`Bindery on ${base} (${services.map((m) => m.name).join(', ')}; databases ${databases.join(', ')}; logs in ${path.relative(root, path.join(fuzzDir, 'logs'))})`);
  return { base, stop, crashed: () => apps.filter((a) => a.exited()).map((a) => a.name) };
}

function portOpen(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function dropDatabase(url, name) {
  const { MongoClient } = require('mongodb');
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
  try {
    await client.connect();
    await client.db(name).dropDatabase();
  } catch (err) {
    log(`could not drop ${name}: ${err.message}`);
  } finally {
    await client.close();
  }
}

/** Data for the fuzzer to reach past "not found": an organization of the administrator's, with a team, an invite link and a SAML provider. */
async function seed(base, token) {
  const me = await api(base, token, 'GET', '/v1/user');
  const org = await api(base, token, 'POST', '/v1/orgs', { title: 'Fuzzed organization' });
  await api(base, token, 'PUT', `/v1/orgs/${org.id}/teams`, { title: 'Fuzzed team', members: [me.id] });
  await api(base, token, 'POST', `/v1/orgs/${org.id}/link-invites`, { role: 'read' });
  await api(base, token, 'POST', `/v1/orgs/${org.id}/saml`, { label: 'Fuzzed IdP' });
  // Content learns of the new organization from identity's events: retry until it knows.
  const collection = await retry(() => api(base, token, 'POST', `/v1/orgs/${org.id}/collections`, { title: 'Fuzzed collection' }));
  const space = await api(base, token, 'POST', `/v1/orgs/${org.id}/spaces`, { title: 'Fuzzed space', parent: collection.id });
  log(`seeded organization ${org.id} (admin ${me.id}) with a team, an invite link, a SAML provider, a collection and a space`);
  return { organizationId: org.id, userId: me.id, collectionId: collection.id, spaceId: space.id };
}

async function retry(work, timeoutMs = 15000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await work();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** Schemathesis's own list for positive_data_acceptance: answers that do not say "your valid request is wrong". */
const ACCEPTED = ['2xx', '3xx', '401', '403', '404', '409', '429', '5xx'];

/**
 * The served document declares, per operation, the refusals of schema-valid requests no schema can
 * express (an id in the body that names nothing, a state that forbids the change: RouteSpec.refusals).
 * For those operations positive_data_acceptance also expects the declared statuses; every other
 * refusal of a schema-valid request is still a failure.
 */
async function declaredRefusals(base) {
  const doc = await (await fetch(`${base}/openapi.json`)).json();
  const sections = [];
  for (const methods of Object.values(doc.paths))
    for (const op of Object.values(methods)) {
      const declared = Object.keys(op.responses ?? {}).filter((s) => /^4\d\d$/.test(s) && !ACCEPTED.includes(s));
      if (declared.length)
        sections.push(
          `[[operations]]\ninclude-operation-id = "${op.operationId}"\nchecks.positive_data_acceptance.expected-statuses = ${JSON.stringify([...ACCEPTED, ...declared])}\n`,
        );
    }
  return sections;
}

/** Per check: how many test cases passed and failed it (from the NDJSON report). */
function printCheckFigures(ndjson) {
  if (!fs.existsSync(ndjson)) return;
  const figures = new Map();
  for (const line of fs.readFileSync(ndjson, 'utf8').split('\n')) {
    if (!line.startsWith('{"ScenarioFinished"')) continue;
    for (const results of Object.values(JSON.parse(line).ScenarioFinished.recorder.checks ?? {})) {
      for (const { name, status } of results) {
        const f = figures.get(name) ?? { passed: 0, failed: 0 };
        if (status === 'success') f.passed++;
        else if (status === 'failure') f.failed++;
        figures.set(name, f);
      }
    }
  }
  console.log('\nChecks (test cases passed / failed):');
  for (const [name, f] of [...figures].sort(([a], [b]) => a.localeCompare(b)))
    console.log(`  ${name.padEnd(30)} ${String(f.passed).padStart(6)} passed  ${String(f.failed).padStart(4)} failed`);
}

async function main() {
  const extra = process.argv.slice(2);
  ensureSchemathesis();
  const external = process.env.FUZZ_URL;
  const token = external ? process.env.BINDERY_ADMIN_TOKEN : `fuzz-admin-${crypto.randomBytes(16).toString('hex')}`;
  if (!token) throw new Error("FUZZ_URL needs BINDERY_ADMIN_TOKEN (the instance administrator's token)");
  const system = external ? { base: external.replace(/\/$/, ''), stop: async () => {}, crashed: () => [] } : await startPrivateBindery(token);
  let status = 1;
  try {
    const ids = await seed(system.base, token);
    // The seeded organization in every path that names one, so checks reach past 404. (Fixing more
    // ids, e.g. userId, makes Schemathesis report its own negative cases made valid by the override.)
    const config = path.join(fuzzDir, 'schemathesis.toml');
    const ndjson = path.join(fuzzDir, 'report', 'last-run.ndjson');
    fs.rmSync(ndjson, { force: true });
    const refusals = await declaredRefusals(system.base);
    log(`${refusals.length} operations declare refusals of schema-valid requests (RouteSpec.refusals)`);
    fs.writeFileSync(
      config,
      `[parameters]\n"path.organizationId" = "${ids.organizationId}"\n"path.spaceId" = "${ids.spaceId}"\n"path.collectionId" = "${ids.collectionId}"\n\n${refusals.join('\n')}`,
    );
    const args = [
      '--config-file',
      config,
      'run',
      `${system.base}/openapi.json`,
      '--header',
      `Authorization: Bearer ${token}`,
      '--checks',
      'all',
      '--max-examples',
      process.env.FUZZ_MAX_EXAMPLES || '50',
      '--workers',
      process.env.FUZZ_WORKERS || '2',
      '--report',
      'junit,ndjson',
      '--report-dir',
      path.join(fuzzDir, 'report'),
      '--report-ndjson-path',
      ndjson,
      ...(process.env.FUZZ_SEED ? ['--seed', process.env.FUZZ_SEED] : []),
      ...extra,
    ];
    log(`schemathesis ${args.join(' ').replace(token, '<admin token>')}`);
    status = await new Promise((resolve) => {
      const child = spawn(bin('schemathesis'), args, { stdio: 'inherit', env: { ...process.env, NO_COLOR: process.env.NO_COLOR ?? '' } });
      child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    });
    printCheckFigures(ndjson);
    const crashed = system.crashed();
    if (crashed.length) {
      log(`these processes died during the run: ${crashed.join(', ')} (see .cache/fuzz/logs)`);
      status = status || 1;
    }
  } finally {
    await system.stop();
  }
  process.exitCode = status;
}

main().catch((err) => {
  console.error(`[fuzz] ${err.message}`);
  process.exitCode = 1;
});
