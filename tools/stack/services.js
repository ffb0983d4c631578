'use strict';
// The apps `npm start` runs, in start order, with the environment each needs locally; derived from
// the manifests (apps/*/service.json), so a new service needs no change here.
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const { cacheDir } = require('./paths');
const { manifests, grpcServices, envPrefix } = require('./manifests');

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

/** A service's port: `<NAME>_GRPC_PORT` (or PORT for the HTTP edge) when set, else its manifest's. */
function portOf(m) {
  const variable = m.kind === 'grpc' ? `${envPrefix(m.name)}_GRPC_PORT` : 'PORT';
  return Number(process.env[variable] || m.port);
}

/** `<NAME>_GRPC_URL` of every gRPC service, as the stack runs them. */
const grpcUrls = () => Object.fromEntries(grpcServices().map((s) => [`${envPrefix(s.name)}_GRPC_URL`, `127.0.0.1:${portOf(s)}`]));

function toService(m) {
  if (m.kind === 'grpc') {
    return {
      name: m.name,
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
    };
  }
  return {
    name: m.name,
    entry: `dist/apps/${m.name}/main.js`,
    env: () => ({
      PORT: String(portOf(m)),
      ...grpcUrls(),
      BINDERY_INTERNAL_SECRET: internalSecret(),
    }),
    readyPort: () => portOf(m),
  };
}

const services = manifests().map(toService);

module.exports = { services, internalSecret };
