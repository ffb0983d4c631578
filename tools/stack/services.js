'use strict';
// The apps `npm start` runs, in start order, with the environment each needs locally.
const services = [
  {
    name: 'identity',
    entry: 'dist/apps/identity/main.js',
    env: (infra) => ({
      MONGODB_URL: infra.mongoUrl,
      KAFKA_BROKERS: infra.kafkaBrokers,
      IDENTITY_GRPC_PORT: process.env.IDENTITY_GRPC_PORT || '50051',
    }),
    readyPort: () => Number(process.env.IDENTITY_GRPC_PORT || 50051),
  },
  {
    name: 'gateway',
    entry: 'dist/apps/gateway/main.js',
    env: () => ({
      PORT: process.env.PORT || '8080',
      IDENTITY_GRPC_URL: `127.0.0.1:${process.env.IDENTITY_GRPC_PORT || 50051}`,
    }),
    readyPort: () => Number(process.env.PORT || 8080),
  },
];

module.exports = { services };
