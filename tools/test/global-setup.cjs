'use strict';
// Jest global setup for projects that talk to the real MongoDB-wire server and Kafka broker:
// provisions and starts them (or uses MONGODB_URL / KAFKA_BROKERS), then exports their addresses
// to the test workers through the environment.
const { ensureInfra } = require('../stack/stack');

module.exports = async function globalSetup() {
  if (process.env.BINDERY_TEST_MONGODB_URL && process.env.BINDERY_TEST_KAFKA_BROKERS) return;
  const infra = await ensureInfra((msg) => console.log(`[stack] ${msg}`));
  process.env.BINDERY_TEST_MONGODB_URL = infra.mongoUrl;
  process.env.BINDERY_TEST_KAFKA_BROKERS = infra.kafkaBrokers;
};
