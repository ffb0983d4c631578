#!/usr/bin/env node
'use strict';
// `npm start [-- <app>…] [--split]` / `npm stop [-- <piece>…] [--keep-infra]` / `node tools/stack/cli.js status`:
// the system on this machine, in the background. Start brings up only what is missing: by default one
// process hosting the apps (the monolith, apps/bindery), with --split one process per app.
const { ensureInfra, startServices, stopAll, status } = require('./stack');

const log = (msg) => console.log(`[stack] ${msg}`);

async function main(command, args) {
  const names = args.filter((a) => !a.startsWith('--'));
  if (command === 'start') {
    const t0 = Date.now();
    const infra = await ensureInfra(log);
    log(`MongoDB at ${infra.mongoUrl.replace(/\/\/[^@]*@/, '//***@')}; Kafka at ${infra.kafkaBrokers} (${Date.now() - t0} ms)`);
    const only = names.filter((n) => n !== 'mongod' && n !== 'kafka');
    if (only.length || !names.length) await startServices(infra, log, { only, split: args.includes('--split') });
    log(`started in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const port = process.env.PORT || '8080';
    if (!names.length || names.includes('gateway')) console.log(`Bindery is up: http://127.0.0.1:${port} (API under /v1, document at /openapi.json). Stop with npm stop.`);
    if (!names.length || names.includes('reader')) {
      const readerUrl = (process.env.BINDERY_READER_URL || `http://127.0.0.1:${process.env.READER_PORT || '8090'}`).replace(/\/$/, '');
      console.log(`Published sites are read at ${readerUrl}/<organization>/<site basename>/`);
    }
  } else if (command === 'stop') {
    await stopAll({ infra: !args.includes('--keep-infra'), only: names });
  } else if (command === 'status') {
    for (const s of status()) console.log(`${s.name.padEnd(16)} ${s.pid ? `running (pid ${s.pid})` : 'stopped'}`);
  } else {
    console.error('usage: cli.js start [<app>…] [--split] | stop [<piece>…] [--keep-infra] | status');
    process.exit(2);
  }
}

main(process.argv[2], process.argv.slice(3)).catch((err) => {
  console.error(`[stack] ${err.message}`);
  process.exit(1);
});
