module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'gateway-content-routes',
  rootDir: __dirname,
};
