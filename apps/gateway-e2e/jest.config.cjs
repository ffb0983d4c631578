module.exports = require('../../jest.infra.cjs')({
  displayName: 'gateway-e2e',
  rootDir: __dirname,
  // End to end: hooks start whole systems of processes; a test drives several of them over HTTP.
  globals: { TEST_TIMEOUT_MS: 120000 },
});
