module.exports = require('../../../jest.infra.cjs')({
  displayName: 'search-feature-grpc',
  rootDir: __dirname,
});
