// Jest settings for projects whose tests talk to the real MongoDB replica set and Kafka broker.
const path = require('node:path');

module.exports = (config) => ({
  ...require('./jest.preset.cjs'),
  // Service tier: a service in process on the shared replica set and broker (its start included).
  globals: { TEST_TIMEOUT_MS: 15000 },
  globalSetup: path.join(__dirname, 'tools/test/global-setup.cjs'),
  globalTeardown: path.join(__dirname, 'tools/test/global-teardown.cjs'),
  ...config,
});
