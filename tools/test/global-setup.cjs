'use strict';
// Jest global setup for projects that talk to the real MongoDB replica set and Kafka broker:
// provisions and starts them (or uses MONGODB_URL / KAFKA_BROKERS), then exports their addresses
// to the test workers through the environment.
const { ensureInfra } = require('../stack/stack');
const { buildApps } = require('../build/build-apps');

module.exports = async function globalSetup() {
  // Names this run's databases and processes (the workers inherit it), so the teardown finds them.
  process.env.BINDERY_TEST_RUN ??= require('node:crypto').randomBytes(4).toString('hex');
  // End-to-end tests run the built apps; building takes well under a second.
  await buildApps();
  if (process.env.BINDERY_TEST_MONGODB_URL && process.env.BINDERY_TEST_KAFKA_BROKERS) return;
  const infra = await ensureInfra((msg) => console.log(`[stack] ${msg}`));
  process.env.BINDERY_TEST_MONGODB_URL = infra.mongoUrl;
  process.env.BINDERY_TEST_KAFKA_BROKERS = infra.kafkaBrokers;
};
