module.exports = require('../../../jest.infra.cjs')({
  displayName: 'specs-data-access',
  rootDir: __dirname,
});
