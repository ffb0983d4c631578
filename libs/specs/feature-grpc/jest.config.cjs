module.exports = require('../../../jest.infra.cjs')({
  displayName: 'specs-feature-grpc',
  rootDir: __dirname,
});
