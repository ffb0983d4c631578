'use strict';
// Asks a running piece how it is: a gRPC service through grpc.health.v1 (the overall status), the
// gateway through GET /healthz. Answers 'serving', 'not-serving' (it answers, a dependency of its is
// down) or 'no-answer' (nothing, or nothing sensible, listens there).
const http = require('node:http');
const grpc = require('@grpc/grpc-js');

// grpc.health.v1.HealthCheckResponse: field 1 (status, varint); 1 = SERVING. The request asks about
// the service "" (the whole server), which encodes as zero bytes.
const Health = grpc.makeGenericClientConstructor(
  {
    check: {
      path: '/grpc.health.v1.Health/Check',
      requestStream: false,
      responseStream: false,
      requestSerialize: () => Buffer.alloc(0),
      requestDeserialize: () => ({}),
      responseSerialize: () => Buffer.alloc(0),
      responseDeserialize: (bytes) => ({ status: bytes.length >= 2 && bytes[0] === 0x08 ? bytes[1] : 0 }),
    },
  },
  'Health',
);

function grpcHealth(port, { timeoutMs = 1000 } = {}) {
  const client = new Health(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  return new Promise((resolve) => {
    client.check({}, { deadline: Date.now() + timeoutMs }, (err, reply) => {
      client.close();
      resolve(err ? 'no-answer' : reply.status === 1 ? 'serving' : 'not-serving');
    });
  });
}

function httpHealth(port, { timeoutMs = 1000 } = {}) {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/healthz', timeout: timeoutMs, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode === 200 ? 'serving' : 'not-serving');
    });
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve('no-answer'));
  });
}

/** The health of a stack service (see services.js) on `port`. */
const healthOf = (service, port, options) => (service.kind === 'grpc' ? grpcHealth(port, options) : httpHealth(port, options));

/** The health of several pieces at once (`[service, port]` pairs): serving when all are, no-answer when one does not answer. */
async function healthOfAll(pieces, options) {
  const all = await Promise.all(pieces.map(([service, port]) => healthOf(service, port, options)));
  return all.includes('no-answer') ? 'no-answer' : all.every((h) => h === 'serving') ? 'serving' : 'not-serving';
}

module.exports = { healthOf, healthOfAll, grpcHealth, httpHealth };
