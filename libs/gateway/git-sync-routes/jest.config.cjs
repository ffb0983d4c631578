module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'gateway-git-sync-routes',
  rootDir: __dirname,
};
