module.exports = require('../../../jest.infra.cjs')({
  displayName: 'git-sync-data-access',
  rootDir: __dirname,
});
