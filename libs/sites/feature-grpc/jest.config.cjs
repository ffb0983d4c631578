module.exports = require('../../../jest.infra.cjs')({
  displayName: 'sites-feature-grpc',
  rootDir: __dirname,
});
