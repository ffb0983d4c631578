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
// The run ends with its figures (run-figures.js): per check, test cases passed and failed; the
// errors; a summary of 5xx answers, response schema violations, schema-valid requests refused and
// operations only ever answered 404. A request gets FUZZ_REQUEST_TIMEOUT seconds (30; imports longer:
// operation-settings.js) before it is reported as an error of its operation.
// The exit code is Schemathesis's (non-zero when a check failed).
const { spawn, spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { REQUEST_TIMEOUT_S, operationSettings } = require('./operation-settings');
const { printRunFigures, runFigures } = require('./run-figures');

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

/** A small OpenAPI document for the seeded spec. */
const SPEC_TEXT = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Fuzzed API', version: '1.0.0' },
  paths: { '/things': { get: { operationId: 'listThings', responses: { 200: { description: 'The things' } } } } },
});

/**
 * Data for the fuzzer to reach past "not found": an organization of the administrator's with a
 * second member, a team, an invite link and a SAML provider; a collection and a space with a page
 * (merged from a change request); an open change request with a comment, a reply, a requested
 * reviewer and the reviewer's review; roles of the member and the team on the space and the
 * collection; a published site of the space with a section, a section group, a redirect and a share
 * link; an OpenAPI spec with its first version; translation settings; a search rebuild. Answers the
 * id of each, by the name of the path parameter that takes it.
 */
async function seed(base, token) {
  const call = (method, urlPath, body) => api(base, token, method, urlPath, body);
  const me = await call('GET', '/v1/user');
  const org = await call('POST', '/v1/orgs', { title: 'Fuzzed organization' });
  const o = `/v1/orgs/${org.id}`;
  const member = await call('POST', '/admin/users', { email: `fuzzed-${crypto.randomBytes(4).toString('hex')}@bindery.test`, displayName: 'Fuzzed member' });
  await call('POST', `${o}/invites`, { emails: [{ email: member.email, role: 'review' }] });
  const team = await call('PUT', `${o}/teams`, { title: 'Fuzzed team', members: [me.id] });
  const invite = await call('POST', `${o}/link-invites`, { role: 'read' });
  const saml = await call('POST', `${o}/saml`, { label: 'Fuzzed IdP' });
  // Content learns of the new organization from identity's events: retry until it knows.
  const collection = await retry(() => call('POST', `${o}/collections`, { title: 'Fuzzed collection' }));
  const space = await call('POST', `${o}/spaces`, { title: 'Fuzzed space', parent: collection.id });
  const s = `/v1/spaces/${space.id}`;
  const first = await call('POST', `${s}/change-requests`, { subject: 'First page' });
  await call('POST', `${s}/change-requests/${first.id}/content`, { changes: [{ operation: 'insert_page', title: 'Fuzzed page', document: { markdown: 'Hello, fuzzer.' } }] });
  await call('POST', `${s}/change-requests/${first.id}/merge`);
  const content = await call('GET', `${s}/content`);
  const page = content.pages.find((p) => p.type === 'document') ?? content.pages[0];
  const cr = await call('POST', `${s}/change-requests`, { subject: 'Fuzzed change request' });
  const c = `${s}/change-requests/${cr.id}`;
  const comment = await call('POST', `${c}/comments`, { body: { markdown: 'A remark.' } });
  const reply = await call('POST', `${c}/comments/${comment.id}/replies`, { body: { markdown: 'An answer.' } });
  await call('POST', `${c}/requested-reviewers`, { users: [member.id] });
  // the member reviews it (the author cannot), with a token of their own
  const memberToken = await call('POST', `/admin/users/${member.id}/tokens`, { label: 'fuzz' });
  const review = await api(base, memberToken.token, 'POST', `${c}/reviews`, { status: 'changes-requested' });
  // the member and the team hold roles on the space and the collection (their permissions can be changed)
  for (const target of [s, `/v1/collections/${collection.id}`]) await call('POST', `${target}/permissions`, { role: 'comment', users: [member.id], teams: [team.id] });
  // sites, specs and search learn of the organization and its spaces from events too
  const site = await retry(() => call('POST', `${o}/sites`, { title: 'Fuzzed site', spaces: [space.id] }));
  const st = `${o}/sites/${site.id}`;
  const siteSpaces = await call('GET', `${st}/site-spaces`);
  const section = await call('POST', `${st}/sections`, { spaceId: space.id, title: 'Fuzzed section' });
  const group = await call('POST', `${st}/section-groups`, { title: 'Fuzzed group' });
  const redirect = await call('POST', `${st}/redirects`, { source: '/old', destination: { kind: 'external', url: 'https://example.com/new' } });
  const shareLink = await call('POST', `${st}/share-links`, { name: 'Fuzzed link' });
  await call('POST', `${st}/publish`);
  await retry(() => call('POST', `${o}/openapi`, { slug: 'fuzzed', source: { text: SPEC_TEXT } }));
  const versions = await retry(async () => {
    const list = await call('GET', `${o}/openapi/fuzzed/versions`);
    if (!list.items.length) throw new Error('the spec has no version yet');
    return list;
  }, 30000);
  const translations = await retry(() => call('POST', `${o}/translations`, { title: 'Fuzzed translations', languages: ['fr'] }));
  const rebuild = await call('POST', '/admin/search/rebuild', { spaces: [space.id] });
  const ids = {
    organizationId: org.id,
    userId: member.id,
    teamId: team.id,
    inviteId: invite.id,
    samlProviderId: saml.id,
    collectionId: collection.id,
    spaceId: space.id,
    revisionId: content.id,
    pageId: page.id,
    pagePath: page.path,
    changeRequestId: cr.id,
    commentId: comment.id,
    commentReplyId: reply.id,
    reviewId: review.id,
    siteId: site.id,
    siteSpaceId: siteSpaces.items[0].id,
    siteSectionId: section.id,
    siteSectionGroupId: group.id,
    siteRedirectId: redirect.id,
    shareLinkId: shareLink.id,
    specSlug: 'fuzzed',
    versionId: versions.items[0].id,
    translationSettingsId: translations.id,
    runId: rebuild.id,
    service: 'content',
  };
  log(`seeded organization ${org.id} (admin ${me.id}): ${Object.keys(ids).join(', ')}`);
  return ids;
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
    // The seeded resources in every path parameter that names one (this run's configuration only,
    // not the served document), so checks reach past 404.
    const config = path.join(fuzzDir, 'schemathesis.toml');
    const ndjson = path.join(fuzzDir, 'report', 'last-run.ndjson');
    fs.rmSync(ndjson, { force: true });
    const settings = operationSettings(await (await fetch(`${system.base}/openapi.json`)).json());
    log(`${settings.refusing.length} operations declare refusals of schema-valid requests (RouteSpec.refusals)`);
    log(`no examples or coverage phase for ${settings.recursiveBodies.length} operations (a recursive body schema): ${settings.recursiveBodies.join(', ')}`);
    fs.writeFileSync(
      config,
      `[parameters]\n${Object.entries(ids)
        .map(([name, id]) => `"path.${name}" = ${JSON.stringify(id)}`)
        .join('\n')}\n\n${settings.sections.join('\n')}`,
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
      // The seeded ids replace the ones the stateful phase carries from a create to the next call, so
      // its "created, then not found" would name a seeded resource (of another organization, or
      // deleted earlier in the run): that one check is left out.
      '--exclude-checks',
      'ensure_resource_availability',
      '--max-examples',
      process.env.FUZZ_MAX_EXAMPLES || '50',
      // Hypothesis's "data generation is too slow" stops an operation's fuzzing with an error, not a
      // failure of Bindery: on a busy machine it came for three operations with large bodies, which
      // were then not fuzzed (with it suppressed, they were, in 78 s).
      '--suppress-health-check',
      'too_slow',
      '--request-timeout',
      process.env.FUZZ_REQUEST_TIMEOUT || String(REQUEST_TIMEOUT_S),
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
    if (fs.existsSync(ndjson)) printRunFigures(runFigures(fs.readFileSync(ndjson, 'utf8')));
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
