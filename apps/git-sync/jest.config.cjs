module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'git-sync',
  rootDir: __dirname,
};
