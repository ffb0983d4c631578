module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'gateway-e2e',
  rootDir: __dirname,
};
