module.exports = require('../../../jest.infra.cjs')({
  displayName: 'content-feature-grpc',
  rootDir: __dirname,
});
