#!/usr/bin/env node
'use strict';
// `npm run bench:members-page`: the CPU a page of 50 members costs (members-page/bench.ts, bundled with
// the workspace's libraries; a whole private Bindery from dist/apps on the local MongoDB and Kafka).
require('./bundled').benchMain('members-page', { apps: true });
