module.exports = require('../../jest.infra.cjs')({
  displayName: 'gateway-e2e',
  rootDir: __dirname,
  testTimeout: 90000,
  // Two workers on the 2-core reference machine: each holds one shared system (sharedSystem()).
  maxWorkers: 2,
});
