module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'git-sync-client',
  rootDir: __dirname,
};
