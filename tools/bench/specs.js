#!/usr/bin/env node
'use strict';
// `npm run bench:specs`: processing a large public API description through Bindery (a PUT of the spec's
// URL, the run fetching, parsing, validating and storing it, until the spec is complete) against the
// chosen parser alone (@scalar/openapi-parser's validate of the same text) in the same run, with the
// specs service's peak RSS (specs/bench.ts). Settings: BENCH_ROUNDS (5), BENCH_FIXTURES
// (github-webhooks,gitbook-api).
require('./bundled').benchMain('specs', { apps: true });
