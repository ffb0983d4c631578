'use strict';
// Every app's manifest (apps/<name>/service.json): name, kind (grpc | http | monolith), port, database.
// The local stack, the test system, the build and the generators read them from here.
const fs = require('node:fs');
const path = require('node:path');
const { root } = require('./paths');

/** `<NAME>_GRPC_PORT`, `<NAME>_DB`, `<NAME>_GRPC_URL` share this prefix (as in libs/platform/config). */
function envPrefix(name) {
  return name.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
}

function allManifests() {
  const apps = path.join(root, 'apps');
  return fs
    .readdirSync(apps)
    .map((name) => path.join(apps, name, 'service.json'))
    .filter((file) => fs.existsSync(file))
    .map((file) => JSON.parse(fs.readFileSync(file, 'utf8')));
}

/** The apps' manifests, gRPC services first (sorted by name), then the HTTP apps that call them. */
function manifests() {
  const rank = (m) => (m.kind === 'grpc' ? 0 : 1);
  return allManifests()
    .filter((m) => m.kind === 'grpc' || m.kind === 'http')
    .sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}

const grpcServices = () => manifests().filter((m) => m.kind === 'grpc');

/** The manifest of the monolith (kind "monolith": apps/bindery), the one process hosting any set of the apps. */
const monolithManifest = () => allManifests().find((m) => m.kind === 'monolith');

module.exports = { manifests, grpcServices, monolithManifest, envPrefix };
