module.exports = require('../../jest.infra.cjs')({
  displayName: 'gateway-e2e',
  rootDir: __dirname,
  testTimeout: 90000,
});
