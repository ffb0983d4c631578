module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'search-domain',
  rootDir: __dirname,
};
