module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'platform-outbound-http',
  rootDir: __dirname,
};
