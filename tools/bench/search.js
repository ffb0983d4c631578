#!/usr/bin/env node
'use strict';
// `npm run bench:search`: organization search over 1,000 and 100,000 pages against content's GetSpace,
// and the index update delay after a write (search/bench.ts, bundled with the workspace's libraries
// and run against the local MongoDB and Kafka). Settings: BENCH_PAGES (1000,100000), BENCH_ROUNDS (200),
// BENCH_DELAY_ROUNDS (20).
require('./bundled').benchMain('search');
