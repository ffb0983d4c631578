module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'workspace-checks',
  rootDir: __dirname,
  testTimeout: 120000,
};
