module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'search-client',
  rootDir: __dirname,
};
