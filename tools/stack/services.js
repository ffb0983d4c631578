'use strict';
// The apps `npm start` runs, in start order, with the environment each needs locally; derived from
// the manifests (apps/*/service.json), so a new service needs no change here.
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const { cacheDir, root } = require('./paths');
const { manifests, grpcServices, monolithManifest, envPrefix } = require('./manifests');

/** The local stack's internal secret (signs callers between gateway and services), made once. */
function internalSecret() {
  if (process.env.BINDERY_INTERNAL_SECRET) return process.env.BINDERY_INTERNAL_SECRET;
  const file = path.join(cacheDir, 'internal-secret');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(cacheDir, { recursive: true });
    fs.writeFileSync(file, crypto.randomBytes(32).toString('hex'), { mode: 0o600 });
  }
  return fs.readFileSync(file, 'utf8').trim();
}

/** The variable naming a service's port: `<NAME>_GRPC_PORT`, or an HTTP app's own (`portVariable`, PORT for the gateway). */
function portVariableOf(m) {
  return m.kind === 'grpc' ? `${envPrefix(m.name)}_GRPC_PORT` : m.portVariable || 'PORT';
}

/** A service's port: its variable when set, else its manifest's. */
function portOf(m) {
  return Number(process.env[portVariableOf(m)] || m.port);
}

/** `<NAME>_GRPC_URL` of every gRPC service, as the stack runs them. */
const grpcUrls = () => Object.fromEntries(grpcServices().map((s) => [`${envPrefix(s.name)}_GRPC_URL`, `127.0.0.1:${portOf(s)}`]));

function toService(m) {
  if (m.kind === 'grpc') {
    return {
      name: m.name,
      kind: m.kind,
      entry: `dist/apps/${m.name}/main.js`,
      env: (infra) => ({
        MONGODB_URL: infra.mongoUrl,
        KAFKA_BROKERS: infra.kafkaBrokers,
        [`${envPrefix(m.name)}_GRPC_PORT`]: String(portOf(m)),
        // services that call another (change-requests → content) find it where the stack runs it
        ...grpcUrls(),
        BINDERY_INTERNAL_SECRET: internalSecret(),
      }),
      readyPort: () => portOf(m),
      portVariable: `${envPrefix(m.name)}_GRPC_PORT`,
    };
  }
  return {
    name: m.name,
    kind: m.kind,
    entry: `dist/apps/${m.name}/main.js`,
    env: (infra) => ({
      [portVariableOf(m)]: String(portOf(m)),
      // the reader follows sites and content events (its caches); the gateway ignores it
      KAFKA_BROKERS: infra.kafkaBrokers,
      // locally the gateway answers on loopback only (gRPC services bind loopback by default)
      HTTP_BIND_ADDRESS: process.env.HTTP_BIND_ADDRESS || '127.0.0.1',
      ...grpcUrls(),
      BINDERY_INTERNAL_SECRET: internalSecret(),
    }),
    readyPort: () => portOf(m),
    portVariable: portVariableOf(m),
  };
}

const services = manifests().map(toService);

/**
 * The monolith (apps/bindery) hosting the apps named: every one's environment at once, and
 * BINDERY_SERVICES naming them. It is ready when every app it hosts is.
 */
function monolithOf(hosted) {
  const m = monolithManifest();
  const pieces = services.filter((s) => hosted.includes(s.name));
  return {
    name: m.name,
    kind: m.kind,
    entry: `dist/apps/${m.name}/main.js`,
    hosted: pieces,
    env: (infra) => Object.assign({}, ...pieces.map((s) => s.env(infra)), { BINDERY_SERVICES: pieces.map((s) => s.name).join(',') }),
    // the port its pid file records: the gateway's when it hosts the gateway
    readyPort: () => front().readyPort(),
    portVariable: front().portVariable,
  };
  function front() {
    return pieces.find((s) => s.name === 'gateway') ?? pieces[pieces.length - 1];
  }
}

/** The fingerprint of the code a service runs: its bundle and the telemetry preload. */
function buildOf(service) {
  const hash = crypto.createHash('sha256');
  for (const file of [service.entry, 'dist/apps/telemetry.js']) hash.update(fs.readFileSync(path.join(root, file)));
  return hash.digest('hex').slice(0, 16);
}

// The environment variables Bindery's apps read: these shared ones, and every service's own
// (`<NAME>_…`). A piece started with other values of these is restarted (see start-plan.js).
const SHARED_SETTINGS =
  /^(BINDERY_|KAFKA_|GRPC_|OUTBOX_|OTEL_|MONGODB_URL$|LOG_LEVEL$|PORT$|HTTP_BIND_ADDRESS$|AUTH_CACHE_TTL_MS$|SITE_TOKEN_CACHE_MS$|REQUEST_BUDGET_MS$|BODY_LIMIT$)/;

/** A fingerprint of the settings a service would be started with now. */
function settingsOf(service, infra) {
  const own = new RegExp(
    `^(${manifests()
      .map((m) => `${envPrefix(m.name)}_`)
      .join('|')})`,
  );
  const env = { ...process.env, ...service.env(infra), BINDERY_SERVICE_NAME: service.name };
  const relevant = Object.keys(env)
    .filter((k) => SHARED_SETTINGS.test(k) || own.test(k))
    .sort()
    .map((k) => `${k}=${env[k]}`);
  return crypto.createHash('sha256').update(relevant.join('\n')).digest('hex').slice(0, 16);
}

module.exports = { services, monolithOf, buildOf, settingsOf, internalSecret, portOf };
