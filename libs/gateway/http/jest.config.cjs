module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'gateway-http',
  rootDir: __dirname,
};
