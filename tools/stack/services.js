'use strict';
// The apps `npm start` runs, in start order, with the environment each needs locally.
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const { cacheDir } = require('./paths');

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
const services = [
  {
    name: 'identity',
    entry: 'dist/apps/identity/main.js',
    env: (infra) => ({
      MONGODB_URL: infra.mongoUrl,
      KAFKA_BROKERS: infra.kafkaBrokers,
      IDENTITY_GRPC_PORT: process.env.IDENTITY_GRPC_PORT || '50051',
      BINDERY_INTERNAL_SECRET: internalSecret(),
    }),
    readyPort: () => Number(process.env.IDENTITY_GRPC_PORT || 50051),
  },
  {
    name: 'gateway',
    entry: 'dist/apps/gateway/main.js',
    env: () => ({
      PORT: process.env.PORT || '8080',
      IDENTITY_GRPC_URL: `127.0.0.1:${process.env.IDENTITY_GRPC_PORT || 50051}`,
      BINDERY_INTERNAL_SECRET: internalSecret(),
    }),
    readyPort: () => Number(process.env.PORT || 8080),
  },
];

module.exports = { services, internalSecret };
