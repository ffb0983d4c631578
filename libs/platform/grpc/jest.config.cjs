module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'platform-grpc',
  rootDir: __dirname,
};
