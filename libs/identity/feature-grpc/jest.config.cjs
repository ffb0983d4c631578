// Unit tests of use cases, and the service tier: identity in this process against the real replica set and broker.
module.exports = require('../../../jest.infra.cjs')({
  displayName: 'identity-feature-grpc',
  rootDir: __dirname,
});
