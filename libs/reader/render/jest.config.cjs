module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'reader-render',
  rootDir: __dirname,
};
