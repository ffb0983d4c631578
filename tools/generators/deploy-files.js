#!/usr/bin/env node
'use strict';
// Kubernetes manifests for a new gRPC service, from its descriptor apps/<name>/service.json
// ({"name":"widgets","kind":"grpc","port":50099,"database":"bindery_widgets","secrets":[...]}):
//   deployFiles(descriptor)        → { 'deploy/base/<name>/kustomization.yaml': …, 'deploy/base/<name>/configmap.yaml': … }
//   addToAggregate(name)           → lists deploy/base/<name> in deploy/base/kustomization.yaml (one line)
//   addToGateway(descriptor)       → <NAME>_GRPC_URL: <name>:<port> in deploy/base/gateway/configmap.yaml
//   addToMonolith(descriptor)      → <NAME>_GRPC_URL: 127.0.0.1:<port> in deploy/small/bindery/configmap.yaml
// Command line (writes all four, never overwrites a file):
//   node tools/generators/deploy-files.js apps/<name>/service.json
// The folder uses deploy/templates/grpc-service; see deploy/README.md ("Adding a service").
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');

/** Secrets the project already keeps in a shared Secret, by the component that wires them. */
const SECRET_COMPONENTS = { BINDERY_ADMIN_TOKEN: '../../components/admin-token' };
/** Secrets every app gets from deploy/templates/app. */
const TEMPLATE_SECRETS = ['MONGODB_URL', 'BINDERY_INTERNAL_SECRET'];

/** widgets → WIDGETS, change-requests → CHANGE_REQUESTS: the prefix of <NAME>_GRPC_PORT, <NAME>_DB, <NAME>_GRPC_URL. */
function envPrefix(name) {
  return name.toUpperCase().replace(/-/g, '_');
}

function check(descriptor) {
  const { name, kind, port, database, secrets = [] } = descriptor ?? {};
  const where = `service descriptor ${JSON.stringify(name)}`;
  if (typeof name !== 'string' || !/^[a-z]([-a-z0-9]*[a-z0-9])?$/.test(name) || name.length > 63) {
    throw new Error(`${where}: name must be a DNS label (lowercase letters, digits, '-'; at most 63 characters)`);
  }
  if (kind !== 'grpc') throw new Error(`${where}: only kind "grpc" services are generated (got ${JSON.stringify(kind)})`);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`${where}: port must be an integer from 1 to 65535`);
  if (database !== undefined && (typeof database !== 'string' || !/^[A-Za-z0-9_-]{1,63}$/.test(database))) {
    throw new Error(`${where}: database must be a MongoDB database name (letters, digits, '_', '-')`);
  }
  if (!Array.isArray(secrets) || secrets.some((s) => typeof s !== 'string' || !/^[A-Z][A-Z0-9_]*$/.test(s))) {
    throw new Error(`${where}: secrets must be a list of environment variable names`);
  }
  return { name, port, database, secrets };
}

/** The files of deploy/base/<name>/, keyed by their path from the repository root. */
function deployFiles(descriptor) {
  const { name, port, database, secrets } = check(descriptor);
  const prefix = envPrefix(name);
  const components = ['../../templates/grpc-service'];
  const ownSecrets = [];
  for (const secret of secrets) {
    if (TEMPLATE_SECRETS.includes(secret)) continue;
    if (SECRET_COMPONENTS[secret]) components.push(SECRET_COMPONENTS[secret]);
    else ownSecrets.push(secret);
  }

  const kustomization = [
    `# ${name} (apps/${name}/service.json): a gRPC service built from deploy/templates/grpc-service.`,
    '# Name, port, database and settings are in configmap.yaml.',
    'apiVersion: kustomize.config.k8s.io/v1beta1',
    'kind: Kustomization',
    'resources:',
    '  - configmap.yaml',
    'components:',
    ...components.map((c) => `  - ${c}`),
    'images:',
    '  - name: bindery/app',
    `    newName: bindery/${name}`,
  ];
  if (ownSecrets.length) {
    kustomization.push(
      'patches:',
      `  # From Secret bindery-${name}, one key per variable.`,
      '  - target:',
      '      kind: Deployment',
      '    patch: |-',
      ...ownSecrets.flatMap((secret) => [
        '      - op: add',
        '        path: /spec/template/spec/containers/0/env/-',
        '        value:',
        `          name: ${secret}`,
        '          valueFrom:',
        '            secretKeyRef:',
        `              name: bindery-${name}`,
        `              key: ${secret}`,
      ]),
    );
  }
  kustomization.push(
    'replacements:',
    '  # The gRPC port, from configmap.yaml, into the container port, the probes and the Service.',
    `  - source: {kind: ConfigMap, name: ${name}-config, fieldPath: data.${prefix}_GRPC_PORT}`,
    '    targets:',
    '      - select: {kind: Deployment}',
    '        fieldPaths:',
    '          - spec.template.spec.containers.[name=app].ports.[name=grpc].containerPort',
    '          - spec.template.spec.containers.[name=app].startupProbe.grpc.port',
    '          - spec.template.spec.containers.[name=app].livenessProbe.grpc.port',
    '          - spec.template.spec.containers.[name=app].readinessProbe.grpc.port',
    '      - select: {kind: Service}',
    '        fieldPaths:',
    '          - spec.ports.[name=grpc].port',
  );

  const configmap = [
    `# ${name}'s settings; deploy/templates/app also reads its name here. Secrets come from Secrets;`,
    '# KAFKA_BROKERS and OTEL_EXPORTER_OTLP_ENDPOINT come from ConfigMap bindery-external',
    '# (deploy/components/external-services).',
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata:',
    `  name: ${name}-config`,
    'data:',
    `  BINDERY_SERVICE_NAME: ${name}`,
    `  ${prefix}_GRPC_PORT: "${port}"`,
    ...(database ? [`  ${prefix}_DB: ${database}`] : []),
    '  LOG_LEVEL: info',
  ];

  return {
    [`deploy/base/${name}/kustomization.yaml`]: kustomization.join('\n') + '\n',
    [`deploy/base/${name}/configmap.yaml`]: configmap.join('\n') + '\n',
  };
}

/** Inserts `line` into the block of lines matching `itemPattern`, in sorted position; false if present. */
function insertSorted(lines, start, itemPattern, line) {
  let end = start;
  while (end < lines.length && itemPattern.test(lines[end])) end++;
  const block = lines.slice(start, end);
  if (block.includes(line)) return false;
  const at = block.findIndex((l) => l > line);
  lines.splice(at < 0 ? end : start + at, 0, line);
  return true;
}

/** Adds `- <name>` to the resources of deploy/base/kustomization.yaml (kept sorted). Returns whether it changed. */
function addToAggregate(name, repoRoot = root) {
  if (typeof name !== 'string' || !/^[a-z]([-a-z0-9]*[a-z0-9])?$/.test(name)) throw new Error(`not a service name: ${JSON.stringify(name)}`);
  const file = path.join(repoRoot, 'deploy/base/kustomization.yaml');
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const start = lines.indexOf('resources:') + 1;
  if (start === 0) throw new Error(`${file}: no top-level "resources:" list`);
  const changed = insertSorted(lines, start, /^ {2}- \S+$/, `  - ${name}`);
  if (changed) fs.writeFileSync(file, lines.join('\n'));
  return changed;
}

/** The gateway's setting for reaching the service: <NAME>_GRPC_URL: <name>:<port>. */
function gatewayEntry(descriptor) {
  const { name, port } = check(descriptor);
  return { key: `${envPrefix(name)}_GRPC_URL`, value: `${name}:${port}` };
}

/** Adds gatewayEntry(descriptor) to deploy/base/gateway/configmap.yaml, next to the other *_GRPC_URL lines. */
function addToGateway(descriptor, repoRoot = root) {
  const { key, value } = gatewayEntry(descriptor);
  return addGrpcUrl(path.join(repoRoot, 'deploy/base/gateway/configmap.yaml'), key, value);
}

/** The monolith's setting for reaching the service in its own pod (deploy/small): <NAME>_GRPC_URL: 127.0.0.1:<port>. */
function monolithEntry(descriptor) {
  const { name, port } = check(descriptor);
  return { key: `${envPrefix(name)}_GRPC_URL`, value: `127.0.0.1:${port}` };
}

/** Adds monolithEntry(descriptor) to deploy/small/bindery/configmap.yaml, next to the other *_GRPC_URL lines. */
function addToMonolith(descriptor, repoRoot = root) {
  const { key, value } = monolithEntry(descriptor);
  return addGrpcUrl(path.join(repoRoot, 'deploy/small/bindery/configmap.yaml'), key, value);
}

/** Adds `key: value` among a ConfigMap's *_GRPC_URL lines (sorted), once; a different value already there is an error. */
function addGrpcUrl(file, key, value) {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const existing = lines.findIndex((l) => l.startsWith(`  ${key}:`));
  if (existing >= 0) {
    if (lines[existing] === `  ${key}: ${value}`) return false;
    throw new Error(`${file}: ${key} is already set to something else: ${lines[existing].trim()}`);
  }
  const first = lines.findIndex((l) => /^ {2}[A-Z0-9_]+_GRPC_URL: /.test(l));
  if (first >= 0) insertSorted(lines, first, /^ {2}[A-Z0-9_]+_GRPC_URL: /, `  ${key}: ${value}`);
  else {
    const data = lines.indexOf('data:');
    if (data < 0) throw new Error(`${file}: no top-level "data:"`);
    lines.splice(data + 1, 0, `  ${key}: ${value}`);
  }
  fs.writeFileSync(file, lines.join('\n'));
  return true;
}

module.exports = { deployFiles, addToAggregate, addToGateway, gatewayEntry, addToMonolith, monolithEntry, envPrefix };

if (require.main === module) {
  const [descriptorFile] = process.argv.slice(2);
  if (!descriptorFile) throw new Error('usage: deploy-files.js apps/<name>/service.json');
  const descriptor = JSON.parse(fs.readFileSync(path.resolve(descriptorFile), 'utf8'));
  for (const [rel, content] of Object.entries(deployFiles(descriptor))) {
    const file = path.join(root, rel);
    if (fs.existsSync(file)) {
      console.log(`exists, left alone: ${rel}`);
      continue;
    }
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    console.log(`wrote ${rel}`);
  }
  if (addToAggregate(descriptor.name)) console.log(`listed ${descriptor.name} in deploy/base/kustomization.yaml`);
  if (addToGateway(descriptor)) console.log(`added ${gatewayEntry(descriptor).key} to deploy/base/gateway/configmap.yaml`);
  if (addToMonolith(descriptor)) console.log(`added ${monolithEntry(descriptor).key} to deploy/small/bindery/configmap.yaml`);
}
