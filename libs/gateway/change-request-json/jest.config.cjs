module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'gateway-change-request-json',
  rootDir: __dirname,
};
