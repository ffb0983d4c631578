#!/usr/bin/env node
'use strict';
// `npm run bench:merge`: the cost of merging a change request (content's MergeRevisions) into a 10-page
// and a 10,000-page space (merge/bench.ts, bundled with the workspace's libraries and run against the
// local MongoDB and Kafka). Settings: BENCH_PAGES (10,10000), BENCH_ROUNDS (30), BENCH_WHOLE_ROUNDS (3).
require('./bundled').benchMain('merge');
