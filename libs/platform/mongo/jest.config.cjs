module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'platform-mongo',
  rootDir: __dirname,
};
