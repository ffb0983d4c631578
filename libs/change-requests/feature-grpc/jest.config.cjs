module.exports = require('../../../jest.infra.cjs')({
  displayName: 'change-requests-feature-grpc',
  rootDir: __dirname,
});
