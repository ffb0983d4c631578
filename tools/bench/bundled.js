'use strict';
// Runs a TypeScript bench (`tools/bench/<name>/bench.ts`) bundled with the workspace's libraries
// against the local MongoDB and Kafka (started when they are not running): what
// `npm run bench:<name>` does for the benches that call services in process.
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const esbuild = require('esbuild');
const { ensureInfra } = require('../stack/stack');
const { buildApps } = require('../build/build-apps');
const { applySmoke } = require('./smoke');

const root = path.resolve(__dirname, '..', '..');

/** Bundles a TypeScript entry and the workspace libraries it imports into dist/bench/<name>.js; answers that path. */
async function bundle(entry, name) {
  const out = path.join(root, 'dist', 'bench', `${name}.js`);
  await esbuild.build({
    entryPoints: [entry],
    outfile: out,
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    // SAML's schema validator (WebAssembly, with optional requires) and the browser driver stay
    // packages: they are loaded only where used and cannot be bundled.
    external: ['mongodb', 'kafkajs', '@grpc/grpc-js', '@opentelemetry/*', 'esbuild', 'samlify', '@authenio/samlify-node-xmllint', 'selfsigned', 'playwright-core'],
    tsconfig: path.join(root, 'tsconfig.base.json'),
    logLevel: 'warning',
  });
  return out;
}

async function runBundledBench(name, { apps = false } = {}) {
  applySmoke(name);
  const infra = await ensureInfra((line) => console.log(`[bench:${name}] ${line}`));
  // Benches through HTTP start the apps from dist/apps.
  if (apps && process.env.BENCH_APPS_BUILT !== '1') await buildApps();
  const out = await bundle(path.join(__dirname, name, 'bench.ts'), name);
  const env = { ...process.env, BINDERY_TEST_MONGODB_URL: infra.mongoUrl, BINDERY_TEST_KAFKA_BROKERS: infra.kafkaBrokers };
  const r = spawnSync(process.execPath, [out], { stdio: 'inherit', env, cwd: root });
  return r.status ?? 1;
}

/** The whole script of such a bench. */
function benchMain(name, options) {
  runBundledBench(name, options).then(
    (status) => process.exit(status),
    (err) => {
      console.error(err.message);
      process.exit(1);
    },
  );
}

module.exports = { bundle, runBundledBench, benchMain };
