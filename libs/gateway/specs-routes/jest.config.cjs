module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'gateway-specs-routes',
  rootDir: __dirname,
};
