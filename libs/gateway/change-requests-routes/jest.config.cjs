module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'gateway-change-requests-routes',
  rootDir: __dirname,
};
