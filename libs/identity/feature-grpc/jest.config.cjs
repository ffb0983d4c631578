module.exports = {
  ...require('../../../jest.preset.cjs'),
  displayName: 'identity-feature-grpc',
  rootDir: __dirname,
};
