module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'gateway-identity-routes',
  rootDir: __dirname,
};
