'use strict';
// The reference targets, each run in its own process (as Bindery's apps are):
//   express  - GET /v1/orgs/:orgId answers the fixed ~1.5 KB organization object
//   echo     - a gRPC server with one unary method answering that object (JSON on the wire)
//   relay    - GET /v1/orgs/:orgId makes one unary call to `echo` per request and answers its reply
// `node targets.js <kind> [grpcAddress]` runs one; startTarget() forks one and waits for its port.
const path = require('node:path');
const { fork } = require('node:child_process');

const ECHO_SERVICE = {
  getOrganization: {
    path: '/bench.Echo/GetOrganization',
    originalName: 'getOrganization',
    requestStream: false,
    responseStream: false,
    requestSerialize: (value) => Buffer.from(JSON.stringify(value)),
    requestDeserialize: (buffer) => JSON.parse(buffer.toString('utf8')),
    responseSerialize: (value) => Buffer.from(JSON.stringify(value)),
    responseDeserialize: (buffer) => JSON.parse(buffer.toString('utf8')),
  },
};

function listenHttp(app) {
  const server = app.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
  server.keepAliveTimeout = 65000;
}

function runExpress() {
  const express = require('express');
  const { organizationPayload } = require('./payload');
  const body = organizationPayload();
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.get('/v1/orgs/:orgId', (_req, res) => {
    res.json(body);
  });
  listenHttp(app);
}

function runEcho() {
  const grpc = require('@grpc/grpc-js');
  const { organizationPayload } = require('./payload');
  const body = organizationPayload();
  const server = new grpc.Server();
  server.addService(ECHO_SERVICE, {
    getOrganization: (_call, callback) => callback(null, body),
  });
  server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, port) => {
    if (err) throw err;
    process.send({ port });
  });
}

function runRelay(address) {
  const grpc = require('@grpc/grpc-js');
  const express = require('express');
  const EchoClient = grpc.makeGenericClientConstructor(ECHO_SERVICE, 'Echo');
  const client = new EchoClient(address, grpc.credentials.createInsecure());
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.get('/v1/orgs/:orgId', (req, res, next) => {
    // A deadline per call, as Bindery's gateway sets one.
    client.getOrganization({ organizationId: req.params.orgId }, { deadline: Date.now() + 10000 }, (err, reply) => {
      if (err) next(err);
      else res.json(reply);
    });
  });
  listenHttp(app);
}

/** Forks `kind` and resolves with { port, stop } once it listens. */
function startTarget(kind, args = []) {
  return new Promise((resolve, reject) => {
    const child = fork(__filename, [kind, ...args], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const stop = () =>
      new Promise((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      });
    child.once('message', (msg) => resolve({ port: msg.port, pid: child.pid, stop }));
    child.once('exit', (code, signal) => reject(new Error(`${kind} target exited before listening (${code ?? signal})`)));
    child.once('error', reject);
  });
}

module.exports = { startTarget, ECHO_SERVICE };

if (require.main === module) {
  const [kind, address] = process.argv.slice(2);
  process.once('SIGTERM', () => process.exit(0));
  process.once('disconnect', () => process.exit(0)); // the runner died: do not linger
  if (kind === 'express') runExpress();
  else if (kind === 'echo') runEcho();
  else if (kind === 'relay') runRelay(address);
  else {
    console.error('usage: targets.js express|echo|relay <grpc address>');
    process.exit(2);
  }
}
