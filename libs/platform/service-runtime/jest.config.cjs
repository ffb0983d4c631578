module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'platform-service-runtime',
  rootDir: __dirname,
};
