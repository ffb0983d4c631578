module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'platform-errors',
  rootDir: __dirname,
};
