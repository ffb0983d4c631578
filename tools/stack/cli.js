#!/usr/bin/env node
'use strict';
// `npm start` / `npm stop`: the whole system on this machine, in the background.
const { ensureInfra, startServices, stopAll, status } = require('./stack');

const log = (msg) => console.log(`[stack] ${msg}`);

async function main(command) {
  if (command === 'start') {
    const t0 = Date.now();
    const infra = await ensureInfra(log);
    log(`MongoDB at ${infra.mongoUrl.replace(/\/\/[^@]*@/, '//***@')}; Kafka at ${infra.kafkaBrokers}`);
    await startServices(infra, log);
    const port = process.env.PORT || '8080';
    log(`started in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    console.log(`Bindery is up: http://127.0.0.1:${port} (API under /v1, document at /openapi.json). Stop with npm stop.`);
  } else if (command === 'stop') {
    await stopAll({ infra: !process.argv.includes('--keep-infra') });
  } else if (command === 'status') {
    for (const s of status()) console.log(`${s.name.padEnd(10)} ${s.pid ? `running (pid ${s.pid})` : 'stopped'}`);
  } else {
    console.error('usage: cli.js start|stop [--keep-infra]|status');
    process.exit(2);
  }
}

main(process.argv[2]).catch((err) => {
  console.error(`[stack] ${err.message}`);
  process.exit(1);
});
