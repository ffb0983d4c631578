#!/usr/bin/env node
'use strict';
// `npm run bench:search`: through HTTP, organization search over 1,000 and 100,000 pages against
// GET /v1/spaces/{spaceId}, and the index update delay after a merge (search/bench.ts, bundled with
// the workspace's libraries; the apps are built and started on the local MongoDB and Kafka).
// Settings: BENCH_PAGES (1000,100000), BENCH_ROUNDS (200), BENCH_DELAY_ROUNDS (20).
require('./bundled').benchMain('search', { apps: true });
