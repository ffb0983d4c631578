module.exports = require('../../../jest.infra.cjs')({
  displayName: 'platform-mongo',
  rootDir: __dirname,
});
