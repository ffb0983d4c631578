#!/usr/bin/env node
'use strict';
// `npm run bench:git`: importing a generated GitBook-layout repository (BENCH_PAGES pages, 1000 by
// default: SUMMARY.md with groups and nesting, README.md chapters, a few assets) served by `git
// http-backend` on loopback, through Bindery (POST …/git/import until the run completes) against
// `git clone` of it plus reading all its files, in the same run, with the services' peak RSS
// (git/bench.ts). Settings: BENCH_PAGES (1000), BENCH_ROUNDS (3).
require('./bundled').benchMain('git', { apps: true });
