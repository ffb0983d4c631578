module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'platform-events',
  rootDir: __dirname,
};
