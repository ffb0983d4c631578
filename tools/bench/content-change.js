#!/usr/bin/env node
'use strict';
// `npm run bench:content-change`: the cost of one update_page on a 10-page and on a 10,000-page space
// (content-change/bench.ts, bundled with the workspace's libraries and run against the local MongoDB
// and Kafka). Settings: BENCH_PAGES (10,10000), BENCH_ROUNDS (40).
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const esbuild = require('esbuild');
const { ensureInfra } = require('../stack/stack');

const root = path.resolve(__dirname, '..', '..');

async function main() {
  const infra = await ensureInfra((line) => console.log(`[bench:content-change] ${line}`));
  const out = path.join(root, 'dist', 'bench', 'content-change.js');
  await esbuild.build({
    entryPoints: [path.join(__dirname, 'content-change', 'bench.ts')],
    outfile: out,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['mongodb', 'kafkajs', '@grpc/grpc-js', '@opentelemetry/*', 'esbuild'],
    tsconfig: path.join(root, 'tsconfig.base.json'),
    logLevel: 'warning',
  });
  const env = { ...process.env, BINDERY_TEST_MONGODB_URL: infra.mongoUrl, BINDERY_TEST_KAFKA_BROKERS: infra.kafkaBrokers };
  const r = spawnSync(process.execPath, [out], { stdio: 'inherit', env, cwd: root });
  process.exit(r.status ?? 1);
}

main().catch((err) => {
  console.error(err.message);
  process.exit(1);
});
