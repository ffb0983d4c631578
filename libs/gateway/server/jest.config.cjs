module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'gateway-server',
  rootDir: __dirname,
};
