#!/usr/bin/env node
'use strict';
// `npm run bench:content-change`: the cost of one update_page on a 10-page and on a 10,000-page space
// (content-change/bench.ts, bundled with the workspace's libraries and run against the local MongoDB
// and Kafka). Settings: BENCH_PAGES (10,10000), BENCH_ROUNDS (40).
require('./bundled').benchMain('content-change');
