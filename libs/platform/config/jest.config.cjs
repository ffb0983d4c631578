module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'platform-config',
  rootDir: __dirname,
};
