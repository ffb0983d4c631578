module.exports = require('../../../jest.infra.cjs')({
  displayName: 'sites-data-access',
  rootDir: __dirname,
});
