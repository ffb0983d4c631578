#!/usr/bin/env node
'use strict';
// `npm run bench:webhooks`: webhook deliveries end to end through a whole system from dist/apps, with
// a receiver on loopback (webhooks/bench.ts): (a) every event type once, signatures checked with the
// documented recipe; (b) the receiver down for BENCH_OUTAGE_S (120 s; 503, then connection refused)
// while events keep coming, then up: all delivered, in order per resource, the delay after recovery;
// (c) a burst of BENCH_BURST (500) renames: latency from the API's answer to arrival, deliveries/s.
require('./bundled').benchMain('webhooks', { apps: true });
