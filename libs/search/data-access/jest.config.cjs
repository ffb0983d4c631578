module.exports = require('../../../jest.infra.cjs')({
  displayName: 'search-data-access',
  rootDir: __dirname,
});
