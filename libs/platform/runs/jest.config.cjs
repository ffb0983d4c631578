module.exports = require('../../../jest.infra.cjs')({
  displayName: 'platform-runs',
  rootDir: __dirname,
});
