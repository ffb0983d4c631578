module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'gateway-sites-routes',
  rootDir: __dirname,
};
