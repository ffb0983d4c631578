module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'gateway-search-routes',
  rootDir: __dirname,
};
