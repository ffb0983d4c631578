#!/usr/bin/env node
'use strict';
// `npm run bench:reader`: a customised page of the reader (cached) against a static file server of
// the same HTML, cold renders of a page with OpenAPI blocks and of a 100-block page, MCP search on a
// 1,000-page site, and the delay until a merge shows (reader/bench.ts, bundled with the workspace's
// libraries; no service or database: the reader reads its sample sites and specs from memory).
// Settings: BENCH_DURATION (10), BENCH_WARMUP (2), BENCH_CONNECTIONS (20), BENCH_PAIRS (3), BENCH_ROUNDS (200).
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { bundle } = require('./bundled');
const { applySmoke } = require('./smoke');

async function main() {
  applySmoke('reader');
  const out = await bundle(path.join(__dirname, 'reader', 'bench.ts'), 'reader');
  const r = spawnSync(process.execPath, [out], { stdio: 'inherit', env: process.env, cwd: path.resolve(__dirname, '..', '..') });
  return r.status ?? 1;
}

main().then(
  (status) => process.exit(status),
  (err) => {
    console.error(err.message);
    process.exit(1);
  },
);
