module.exports = require('../../../jest.infra.cjs')({
  displayName: 'identity-projection',
  rootDir: __dirname,
});
