module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'git-sync-domain',
  rootDir: __dirname,
};
