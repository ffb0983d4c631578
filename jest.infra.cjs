// Jest settings for projects whose tests talk to the real MongoDB replica set and Kafka broker.
const path = require('node:path');

module.exports = (config) => ({
  ...require('./jest.preset.cjs'),
  globalSetup: path.join(__dirname, 'tools/test/global-setup.cjs'),
  globalTeardown: path.join(__dirname, 'tools/test/global-teardown.cjs'),
  ...config,
});
